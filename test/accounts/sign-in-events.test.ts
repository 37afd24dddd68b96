import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { signIn } from '../../src/domains/accounts/sign-in.ts';
import { SIGN_IN_EVENTS_KEPT_DAYS } from '../../src/domains/accounts/sign-in-events.ts';
import { sweepOAuth } from '../../src/domains/oauth/sweep.ts';
import { createRateLimits } from '../../src/platform/rate-limit/index.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithPassword } from '../support/oauth.ts';

const DAY_MS = 86_400_000;

describe('sign-in events (the durable record of failed sign-ins and locks)', () => {
  const app = useTestApp();
  const em = () => app().em();
  let limits: ReturnType<typeof createRateLimits> | undefined;
  const rateLimits = () =>
    (limits ??= createRateLimits({ databaseUrl: String(app().services.orm.config.get('clientUrl')) }));
  afterAll(async () => limits?.close());

  const events = (accountId: string) =>
    em().execute<{ kind: string }[]>('select kind from sign_in_events where account_id = ? order by id', [
      accountId,
    ]);
  /** Each attempt from its own address, so only the per-email throttle is in play. */
  const attempt = (email: string, password: string) =>
    signIn(em().fork(), rateLimits(), {
      email,
      password,
      ip: `198.51.100.${Math.floor(Math.random() * 250)}`,
    })
      .then(() => ({ ok: true as const }))
      .catch((error: { code?: string; message?: string; type?: string }) => ({
        ok: false as const,
        type: error.type,
        code: error.code,
        message: error.message,
      }));

  it('records each failure of an existing account, the locking one as locked, and nothing after a success', async () => {
    const account = await accountWithPassword(em(), `events-${randomUUID()}@example.com`);
    expect(await attempt(account.email, 'wrong password here')).toMatchObject({
      code: 'invalid_credentials',
    });
    expect(await attempt(account.email, account.password)).toEqual({ ok: true });
    expect(await events(account.id)).toEqual([{ kind: 'failed' }]);

    for (let i = 0; i < 4; i++) await attempt(account.email.toUpperCase(), 'wrong password here');
    expect(await attempt(account.email, 'wrong password here')).toMatchObject({ code: 'account_locked' });
    expect((await events(account.id)).map((e) => e.kind)).toEqual([
      'failed',
      'failed',
      'failed',
      'failed',
      'failed',
      'locked',
    ]);
    // Refused while locked before the password is checked: not a failure of its own.
    await attempt(account.email, 'wrong password here');
    expect(await events(account.id)).toHaveLength(6);
  });

  it('records nothing for an unknown email, whose answers equal a known one', async () => {
    const known = await accountWithPassword(em(), `known-${randomUUID()}@example.com`);
    const unknown = `nobody-${randomUUID()}@example.com`;
    const before = await em().execute<{ n: number }[]>('select count(*)::int as n from sign_in_events');
    for (let i = 0; i < 5; i++) {
      const [a, b] = [
        await attempt(known.email, 'wrong password here'),
        await attempt(unknown, 'wrong password here'),
      ];
      expect(b).toEqual(a);
    }
    const after = await em().execute<{ n: number }[]>('select count(*)::int as n from sign_in_events');
    expect(after[0]!.n - before[0]!.n).toBe(5);
    expect((await events(known.id)).at(-1)).toEqual({ kind: 'locked' });
  });

  it('keeps no IP address', async () => {
    const columns = await em().execute<{ column_name: string }[]>(
      `select column_name from information_schema.columns where table_name = 'sign_in_events' order by 1`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(['account_id', 'id', 'kind', 'occurred_at']);
  });

  it('outlives the transaction the failed sign-in rolls back', async () => {
    const account = await accountWithPassword(em(), `tx-${randomUUID()}@example.com`);
    await expect(
      em()
        .fork()
        .transactional((tem) =>
          signIn(tem, rateLimits(), {
            email: account.email,
            password: 'wrong password here',
            ip: '198.51.100.7',
          }),
        ),
    ).rejects.toMatchObject({ code: 'invalid_credentials' });
    expect(await events(account.id)).toEqual([{ kind: 'failed' }]);
  });

  it(`the OAuth sweep deletes events older than ${SIGN_IN_EVENTS_KEPT_DAYS} days and keeps newer ones`, async () => {
    const account = await accountWithPassword(em(), `sweep-${randomUUID()}@example.com`);
    const now = new Date();
    for (const [days, kind] of [
      [SIGN_IN_EVENTS_KEPT_DAYS + 1, 'locked'],
      [SIGN_IN_EVENTS_KEPT_DAYS - 1, 'failed'],
    ] as const) {
      await em().execute('insert into sign_in_events (account_id, kind, occurred_at) values (?, ?, ?)', [
        account.id,
        kind,
        new Date(now.getTime() - days * DAY_MS),
      ]);
    }
    const swept = await sweepOAuth(em().fork(), now);
    expect(swept.signInEvents).toBeGreaterThanOrEqual(1);
    expect(await events(account.id)).toEqual([{ kind: 'failed' }]);
  });
});
