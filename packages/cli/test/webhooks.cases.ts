import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import { accountWithToken } from '../../../test/support/factories.ts';
import { runCli, startCli, tempConfig, until } from './support.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback receiver keeping each POST's headers and raw body. */
function receiver() {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  return {
    received,
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** tributary webhooks listen and trigger (on the app of commands.test.ts). */
export function webhookCases(app: () => TestApp): void {
  describe('tributary webhooks listen and trigger', () => {
    const config = tempConfig();
    const hooks = receiver();
    beforeAll(hooks.start);
    afterAll(async () => {
      await hooks.close();
      config.cleanup();
    });

    it('listen forwards a triggered event byte for byte, signed with the session secret as real deliveries are', async () => {
      const account = await accountWithToken(app().em());
      const env = {
        XDG_CONFIG_HOME: config.dir,
        TRIBUTARY_API_URL: app().url,
        TRIBUTARY_TOKEN: account.token,
      };
      const listen = startCli(
        ['webhooks', 'listen', '--forward-to', hooks.url(), '--events', 'release.status_changed', '--json'],
        env,
      );
      await until(() => listen.output.stdout.includes('\n'), 'the ready line');
      const ready = JSON.parse(listen.output.stdout.split('\n')[0]!);
      expect(ready.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

      // The subscription opens just after the ready line: trigger until an event arrives.
      const triggered: { event_id: string; payload: unknown }[] = [];
      for (let attempt = 0; attempt < 5 && hooks.received.length === 0; attempt++) {
        // An event of a kind not asked for is not forwarded.
        expect((await runCli(['webhooks', 'trigger', 'release.approved', '--json'], env)).code).toBe(0);
        const run = await runCli(['webhooks', 'trigger', 'release.status_changed', '--json'], env);
        expect(run.code, run.stderr).toBe(0);
        triggered.push(JSON.parse(run.stdout));
        await until(() => hooks.received.length > 0, 'a forwarded event', 1500).catch(() => {});
      }
      const [first] = hooks.received;
      expect(first).toBeDefined();
      const event = triggered.find((made) => made.event_id === first!.headers['webhook-id'])!;
      // The REST answer has the payload as an object, its keys in the body's order.
      expect(first!.body).toBe(JSON.stringify(event.payload));
      const headers = first!.headers as Record<string, string>;
      expect(new Webhook(ready.secret).verify(first!.body, headers)).toEqual(event.payload);
      expect(headers['x-svc-event']).toBe('release.status_changed');
      expect(headers['x-svc-signature']).toBe(
        `sha256=${createHmac('sha256', ready.secret).update(first!.body).digest('hex')}`,
      );
      await until(() => listen.output.stdout.split('\n').length > 2, 'the forwarded line');
      expect(JSON.parse(listen.output.stdout.split('\n')[1]!)).toMatchObject({
        eventId: event.event_id,
        type: 'release.status_changed',
        status: 204,
      });
      expect(hooks.received.every((hook) => hook.headers['x-svc-event'] === 'release.status_changed')).toBe(
        true,
      );

      listen.kill('SIGINT');
      expect((await listen.done).code).toBe(0);
    });

    it('trigger prints what it made; an unknown kind is a usage error', async () => {
      const account = await accountWithToken(app().em());
      const env = {
        XDG_CONFIG_HOME: config.dir,
        TRIBUTARY_API_URL: app().url,
        TRIBUTARY_TOKEN: account.token,
      };
      const made = await runCli(['webhooks', 'trigger', 'release.approved'], env);
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toMatch(
        /^Triggered release\.approved \S+ on release \S+ \(the sandbox sample\); \d+ left this minute$/m,
      );
      const unknown = await runCli(['webhooks', 'trigger', 'release.deleted'], env);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('unknown event release.deleted');
    });
  });
}
