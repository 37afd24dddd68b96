import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

describe('the cached profile (me)', () => {
  const app = useTestApp();

  it('a read right after a commit never shows the old profile', async () => {
    const account = await accountWithToken(app().em());
    const me = async () => (await request(app().url, 'GET', '/v1/me', { token: account.token })).body.profile;
    // Any commit in the process clears the cache (background work included), so a read may be answered
    // and not kept: read until one is kept, which shows the cache is in use.
    await vi.waitFor(async () => {
      await me();
      expect(app().services.profiles.size).toBeGreaterThan(0);
    });

    for (const name of ['Ada', 'Grace', 'Hedy']) {
      await app()
        .em()
        .transactional((tem) =>
          tem.execute('update accounts set first_name = ? where id = ?', [name, account.accountId]),
        );
      expect((await me()).first_name).toBe(name);
      expect((await me()).first_name).toBe(name); // the second answer comes from the cache
    }
  });

  it('each account reads its own profile', async () => {
    const one = await accountWithToken(app().em());
    const two = await accountWithToken(app().em());
    for (let i = 0; i < 2; i++) {
      const [a, b] = await Promise.all(
        [one, two].map((who) => request(app().url, 'GET', '/v1/me', { token: who.token })),
      );
      expect(a?.body.profile.id).toBe(one.accountId);
      expect(b?.body.profile.id).toBe(two.accountId);
    }
  });
});
