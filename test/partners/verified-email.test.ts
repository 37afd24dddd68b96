import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startOAuthSweeper } from '../../src/workers/oauth-sweeper.ts';
import { budgetsOnly } from '../rate-limits/support.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { request } from '../support/http.ts';
import { accountWithPassword, browse, CookieJar, csrfOf } from '../support/oauth.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp.ts';
import { waitFor } from '../support/wait.ts';

const CHALLENGE = '/v1/agent-auth/verified-email/challenge';
const CLAIM = '/v1/agent-auth/verified-email/claim';

describe('verified-email flow over SMTP (smtp-server + mailparser on loopback)', () => {
  let smtp: SmtpSink;
  let app: TestApp;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    smtp = await startSmtpSink();
    app = await startTestApp({ SMTP_URL: smtp.url }, { background: true, services: { clock } });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  /** Asks for a code and reads it from the mail's subject (its first 8 digits), as an agent would. */
  async function mailedCode(email: string, clientName = 'Studio Agent'): Promise<string> {
    const before = smtp.mails.length;
    const answer = await request(app.url, 'POST', CHALLENGE, { body: { email, client_name: clientName } });
    expect(answer.status).toBe(200);
    const mails = await waitFor(
      async () => smtp.mails.slice(before),
      (list) => list.length > 0,
      15_000,
    );
    const mail = mails.at(-1)!;
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe(email);
    const code = /^(\d{8})/.exec(mail.subject ?? '')?.[1];
    expect(code).toMatch(/^\d{8}$/);
    expect(mail.text).toContain(code);
    expect(mail.html).toContain(code);
    expect(mail.text).toContain(clientName);
    expect(mail.text).toContain('quote and submit');
    return code!;
  }

  const mcp = (token: string, name: string, args: Record<string, unknown> = {}) =>
    request(app.url, 'POST', '/api/mcp', {
      token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });

  it('challenge → mail → claim → tools/call get_profile; the token is in settings under client_name', async () => {
    const account = await accountWithPassword(app.em(), 'agent-owner@example.com');
    const code = await mailedCode(account.email, 'Studio Agent');
    const claimed = await request(app.url, 'POST', CLAIM, { body: { email: account.email, code } });
    expect(claimed.status).toBe(201);
    expect(claimed.body).toMatchObject({
      access_token: expect.stringMatching(/^svc_vet_/),
      token_type: 'Bearer',
      scope: 'svc:mcp',
      expires_at: expect.any(String),
    });
    const profile = await mcp(claimed.body.access_token, 'get_profile');
    expect(JSON.parse(profile.body.result.content[0].text).profile.email).toBe(account.email);

    const [row] = await app
      .em()
      .getConnection()
      .execute<{ name: string; kind: string; code_hash?: string }[]>(
        `select name, kind from access_tokens where account_id = ? and kind = 'verified_email'`,
        [account.id],
      );
    expect(row).toMatchObject({ name: 'Studio Agent', kind: 'verified_email' });
    const [stored] = await app
      .em()
      .getConnection()
      .execute<{ code_hash: string }[]>(`select code_hash from email_challenges where email = ?`, [
        account.email,
      ]);
    expect(stored!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.code_hash).not.toContain(code);

    // Developer settings list it under the client's name, and revoking it there ends it at once.
    const jar = new CookieJar();
    const form = await browse(jar, `${app.url}/settings/sign-in`);
    await browse(jar, `${app.url}/settings/sign-in`, {
      csrf: csrfOf(form.body),
      email: account.email,
      password: account.password,
    });
    const page = await browse(jar, `${app.url}/settings/tokens`);
    expect(page.body).toContain('Studio Agent');
    const revokeAction = /action="(\/settings\/tokens\/[0-9a-f-]+\/revoke)"/.exec(page.body)?.[1];
    expect(revokeAction).toBeDefined();
    const revoked = await browse(jar, `${app.url}${revokeAction}`, { csrf: csrfOf(page.body) });
    expect(revoked.status).toBe(303);
    expect((await mcp(claimed.body.access_token, 'get_profile')).status).toBe(401);

    // The code was spent: a second claim with it fails.
    const reused = await request(app.url, 'POST', CLAIM, { body: { email: account.email, code } });
    expect([reused.status, reused.body.code]).toEqual([400, 'invalid_code']);
  });

  it('five wrong codes close the challenge: even the right code then fails', async () => {
    const account = await accountWithPassword(app.em(), 'five-wrong@example.com');
    const code = await mailedCode(account.email);
    const wrong = code === '00000000' ? '11111111' : '00000000';
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(
        (await request(app.url, 'POST', CLAIM, { body: { email: account.email, code: wrong } })).body.code,
      );
    }
    expect(answers).toEqual([
      'invalid_code',
      'invalid_code',
      'invalid_code',
      'invalid_code',
      'too_many_attempts',
    ]);
    const right = await request(app.url, 'POST', CLAIM, { body: { email: account.email, code } });
    expect(right.status).toBe(400);
    // A new challenge is needed, and works.
    const fresh = await mailedCode(account.email);
    expect(
      (await request(app.url, 'POST', CLAIM, { body: { email: account.email, code: fresh } })).status,
    ).toBe(201);
  });

  it('five wrong codes answer the same sequence for a known and an unknown address (no enumeration)', async () => {
    await accountWithPassword(app.em(), 'lockout-known@example.com');
    const addresses = ['lockout-known@example.com', 'lockout-ghost@example.com'];
    for (const email of addresses) {
      expect((await request(app.url, 'POST', CHALLENGE, { body: { email } })).status).toBe(200);
    }
    // Both challenge jobs have run (the known one has mailed) before anything is claimed.
    const states = await waitFor(
      () =>
        app
          .em()
          .getConnection()
          .execute<{ state: string }[]>(
            `select state from pgboss.job where name = 'verified-email.challenge' and data->>'email' in (?, ?)`,
            addresses,
          ),
      (rows) => rows.length === 2 && rows.every((row) => row.state === 'completed'),
      15_000,
    );
    expect(states.map((row) => row.state)).toEqual(['completed', 'completed']);
    const ignored = ['date', 'x-request-id'];
    const sequenceOf = async (email: string) => {
      const answers = [];
      for (let i = 0; i < 6; i++) {
        const answer = await request(app.url, 'POST', CLAIM, { body: { email, code: '00000000' } });
        const headers = [...answer.headers.entries()]
          .filter(([name]) => !ignored.includes(name))
          .map(([name, value]) => [
            name,
            name === 'ratelimit' ? budgetsOnly(value, ['email-claim-email']) : value,
          ])
          .sort();
        const { requestId, ...body } = answer.body;
        expect(requestId).toEqual(expect.any(String));
        answers.push({ status: answer.status, body, headers });
      }
      return answers;
    };
    const known = await sequenceOf(addresses[0]!);
    const unknown = await sequenceOf(addresses[1]!);
    expect(known.map((answer) => answer.body.code)).toEqual([
      'invalid_code',
      'invalid_code',
      'invalid_code',
      'invalid_code',
      'too_many_attempts',
      'invalid_code',
    ]);
    expect(unknown).toEqual(known);
  });

  it('the sweeper deletes expired challenges (every address has them) and keeps live ones', async () => {
    const insert = (email: string, expiresAt: Date) =>
      app
        .em()
        .getConnection()
        .execute(
          `insert into email_challenges (id, email, code_hash, client_name, scopes, attempts, expires_at, created_at)
           values (gen_random_uuid(), ?, ?, 'x', '{svc:mcp}', 0, ?, now())`,
          [email, '0'.repeat(64), expiresAt],
        );
    await insert('swept@example.com', new Date(Date.now() - 1000));
    await insert('kept@example.com', new Date(Date.now() + 600_000));
    const stop = startOAuthSweeper({ em: () => app.em(), logger: createLogger('silent') });
    const left = await waitFor(
      () =>
        app
          .em()
          .getConnection()
          .execute<{ email: string }[]>(
            `select email from email_challenges where email in ('swept@example.com', 'kept@example.com')`,
          ),
      (rows) => rows.length < 2,
      10_000,
    );
    stop();
    expect(left.map((row) => row.email)).toEqual(['kept@example.com']);
  });

  it('an expired code fails (the test clock moves 15 minutes on)', async () => {
    const account = await accountWithPassword(app.em(), 'expired@example.com');
    const code = await mailedCode(account.email);
    clock.advance(15 * 60 + 1);
    const late = await request(app.url, 'POST', CLAIM, { body: { email: account.email, code } });
    expect([late.status, late.body.code]).toEqual([400, 'invalid_code']);
  });

  it('unknown and known addresses: same status, same body, same headers, no mail for the unknown one', async () => {
    await accountWithPassword(app.em(), 'known-addr@example.com');
    const headerNames = (h: Headers) =>
      [...h.keys()].filter((k) => !['date', 'x-request-id', 'content-length', 'etag'].includes(k)).sort();
    const before = smtp.mails.length;
    const known = await request(app.url, 'POST', CHALLENGE, { body: { email: 'known-addr@example.com' } });
    const unknown = await request(app.url, 'POST', CHALLENGE, { body: { email: 'nobody-here@example.com' } });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(headerNames(unknown.headers)).toEqual(headerNames(known.headers));
    expect(unknown.headers.get('content-length')).toBe(known.headers.get('content-length'));
    expect(known.body).toMatchObject({ claim_uri: `${app.url}${CLAIM}`, expires_in: 900 });
    await waitFor(
      async () => smtp.mails.length,
      (n) => n > before,
      15_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails.slice(before).map((m) => (m.to && 'text' in m.to ? m.to.text : ''))).toEqual([
      'known-addr@example.com',
    ]);
  });

  it('answers known and unknown addresses in the same time (difference of medians within the noise)', async () => {
    const known: string[] = [];
    for (let i = 0; i < 16; i++)
      known.push((await accountWithPassword(app.em(), `timing${i}@example.com`)).email);
    const timeOf = async (email: string) => {
      const start = performance.now();
      const answer = await request(app.url, 'POST', CHALLENGE, { body: { email } });
      expect(answer.status).toBe(200);
      return performance.now() - start;
    };
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < known.length; i++) {
      knownTimes.push(await timeOf(known[i]!));
      unknownTimes.push(await timeOf(`ghost${i}@example.com`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const spread = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return sorted[Math.floor(xs.length * 0.75)]! - sorted[Math.floor(xs.length * 0.25)]!;
    };
    const difference = Math.abs(median(knownTimes) - median(unknownTimes));
    // Noise: the interquartile range of the two samples together (at least 3 ms on a busy machine).
    const noise = Math.max(3, spread([...knownTimes, ...unknownTimes]));
    expect(difference).toBeLessThanOrEqual(noise * 2);
  });

  it('has no /dev/outbox when mail goes out over SMTP', async () => {
    expect(app.services.mailer.kind).toBe('smtp');
    expect((await request(app.url, 'GET', '/dev/outbox')).status).toBe(404);
  });

  it('svc:fraud cannot be asked for by email (PATs only); an unknown scope is refused too', async () => {
    const fraud = await request(app.url, 'POST', CHALLENGE, {
      body: { email: 'scopes@example.com', scopes: ['svc:mcp', 'svc:fraud'] },
    });
    expect(fraud.status).toBe(400);
    expect(fraud.body).toMatchObject({ code: 'invalid_scope' });
    expect(fraud.body.message).toContain('personal access tokens');
    const unknown = await request(app.url, 'POST', CHALLENGE, {
      body: { email: 'scopes@example.com', scopes: ['svc:admin'] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('Unknown scope(s): svc:admin');
    const plain = await request(app.url, 'POST', CHALLENGE, {
      body: { email: 'scopes@example.com', scopes: ['svc:mcp'] },
    });
    expect(plain.status).toBe(200);
  });

  it('rate limits challenges per email with 429 and Retry-After', async () => {
    let last = await request(app.url, 'POST', CHALLENGE, { body: { email: 'flood@example.com' } });
    for (let i = 0; i < 6 && last.status !== 429; i++) {
      last = await request(app.url, 'POST', CHALLENGE, { body: { email: 'flood@example.com' } });
    }
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
