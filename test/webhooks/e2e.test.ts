import { verify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { appendEvent } from '../../src/platform/events/append-event.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { startProcessWorld, useCleanup } from '../support/process-world.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';
import { until } from '../support/wait.ts';

const cleanup = useCleanup();

describe('webhooks end to end, through server processes', () => {
  it('signed deliveries reach an https receiver trusted through NODE_EXTRA_CA_CERTS; kill -9 mid-burst loses none', async () => {
    const { receiver, orm, env } = await startProcessWorld(cleanup, 'wh_e2e', 4);
    let server: ServerProcess = await startServerProcess(env);
    cleanup.push(() => server.stop());

    const account = await accountWithToken(orm.em.fork(), { credits: 10 });
    const created = await request(server.url, 'POST', '/v1/webhooks', {
      token: account.token,
      body: { url: receiver.url('/hook') },
    });
    expect(created.status).toBe(201);
    const secret: string = created.body.signing_secret;

    const assets = await uploadAssets(server.url, account);
    const body = validSubmission(assets, 1);
    body.release.distribution_store_ids = [301];
    await request(server.url, 'POST', '/v1/releases', { token: account.token, body });
    await until(() => receiver.hits.some((h) => h.headers['x-svc-event'] === 'release.approved'), 20_000);
    const kinds = receiver.hits.map((h) => h.headers['x-svc-event']);
    expect(kinds).toEqual(expect.arrayContaining(['release.status_changed', 'release.approved']));
    for (const hit of receiver.hits) {
      expect(await verify(secret, hit.body, String(hit.headers['x-svc-signature']))).toBe(true);
      expect(hit.headers['content-type']).toBe('application/json');
      expect(hit.headers['x-svc-event']).toBe(JSON.parse(hit.body).event);
      expect(hit.headers['x-svc-delivery']).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number(hit.headers['x-svc-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 120);
    }

    // A burst of events, and the process killed in the middle of delivering them.
    const burst = 150;
    const before = receiver.hits.length;
    const writes = (async () => {
      for (let n = 0; n < burst; n++) {
        await orm.em.fork().transactional((em) =>
          appendEvent(em, {
            accountId: account.accountId,
            type: 'release.status_changed',
            payload: { event: 'release.status_changed', n },
          }),
        );
      }
    })();
    await until(() => receiver.hits.length > before + 20, 10_000);
    await server.kill9();
    await writes;
    server = await startServerProcess(env);
    const seen = () => new Set(receiver.hits.slice(before).map((h) => JSON.parse(h.body).n as number));
    await until(() => seen().size === burst, 90_000);
    expect(seen().size).toBe(burst);
  }, 180_000);
});
