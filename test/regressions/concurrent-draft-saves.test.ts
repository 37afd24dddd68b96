import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

/**
 * A locked release row used to be read with FOR UPDATE SKIP LOCKED (MikroORM's lock mode 4), so a save
 * racing another answered "release not found". Saves of one draft must wait for each other instead.
 */
describe('concurrent saves of one draft', () => {
  const app = useTestApp({ DATABASE_POOL_MAX: '12' });

  it('all succeed, each on its own revision', async () => {
    const account = await accountWithToken(app().em());
    const draft = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body: { release: { title: 'Race' } },
    });
    const saves = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        request(app().url, 'POST', '/v1/drafts', {
          token: account.token,
          body: { release_id: draft.body.releaseId, release: { label: `L${i}` } },
        }),
      ),
    );
    expect(saves.map((s) => s.status)).toEqual(Array(10).fill(200));
    expect(saves.map((s) => s.body.snapshot.revision).sort((a: number, b: number) => a - b)).toEqual([
      2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    ]);
  });
});
