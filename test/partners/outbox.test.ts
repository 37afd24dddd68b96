import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { outboxPageEnabled } from '../../schema/partners/outbox.ts';
import { useTestApp } from '../support/app.ts';
import { request } from '../support/http.ts';
import { accountWithPassword } from '../support/oauth.ts';
import { rawRequest } from '../support/raw-http.ts';
import { waitFor } from '../support/wait.ts';

const run = promisify(execFile);

describe('the embedded outbox (no SMTP_URL)', () => {
  const app = useTestApp({}, { background: true });

  it('keeps the code mail in PostgreSQL: /dev/outbox and admin mail:list show it, and the code claims', async () => {
    const account = await accountWithPassword(app().em(), 'outbox-user@example.com');
    expect(app().services.mailer.kind).toBe('outbox');
    await request(app().url, 'POST', '/v1/agent-auth/verified-email/challenge', {
      body: { email: account.email, client_name: 'Outbox <Agent>' },
    });
    const page = await waitFor(
      async () => (await request(app().url, 'GET', '/dev/outbox')).body as string,
      (text) => /\d{8} is your Tributary code/.test(text),
      15_000,
    );
    expect(page).toContain('outbox-user@example.com');
    expect(page).toContain('Outbox &lt;Agent&gt;');
    expect(page).not.toContain('<Agent>');

    const { stdout } = await run(process.execPath, ['src/cli/admin.ts', 'mail:list', '--limit', '5'], {
      env: { ...process.env, DATABASE_URL: app().services.config.DATABASE_URL! },
    });
    const listed = JSON.parse(stdout) as { mails: { to: string; subject: string; text: string }[] };
    expect(listed.mails[0]).toMatchObject({ to: account.email });
    const code = /^(\d{8})/.exec(listed.mails[0]!.subject)![1]!;
    expect(listed.mails[0]!.text).toContain(code);
    const claimed = await request(app().url, 'POST', '/v1/agent-auth/verified-email/claim', {
      body: { email: account.email, code },
    });
    expect(claimed.status).toBe(201);
  });

  it('is shown only to a caller on this machine, not to one forwarded by a loopback proxy', async () => {
    expect((await request(app().url, 'GET', '/dev/outbox')).status).toBe(200);
    const remote = await request(app().url, 'GET', '/dev/outbox', {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(remote.status).toBe(404);
    expect(String(remote.body)).not.toContain('is your Tributary code');
  });

  it("is not shown to a page whose name was rebound to this machine: the Host must be PUBLIC_URL's", async () => {
    const port = new URL(app().url).port;
    for (const host of [
      `evil.example:${port}`,
      `127.0.0.1:${Number(port) + 1}`,
      `127.0.0.1.evil.example:${port}`,
    ]) {
      const rebound = await rawRequest(app().url, '/dev/outbox', { headers: { host } });
      expect(rebound.status, host).toBe(404);
      expect(rebound.body).not.toContain('Outbox (development)');
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await rawRequest(app().url, '/dev/outbox', { headers: { host } })).status, host).toBe(200);
    }
  });

  it('is never shown in production', () => {
    const production = {
      ...app().services,
      config: { ...app().services.config, NODE_ENV: 'production' as const },
    };
    expect(outboxPageEnabled(app().services)).toBe(true);
    expect(outboxPageEnabled(production)).toBe(false);
  });
});
