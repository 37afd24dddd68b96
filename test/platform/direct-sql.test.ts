import { UniqueConstraintViolationException, wrap } from '@mikro-orm/core';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { Account } from '../../src/domains/accounts/index.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { ReleaseArtist } from '../../src/domains/releases/release-artist.entity.ts';
import { insertRows, JsonText, runSql } from '../../src/platform/db/direct-sql.ts';
import { accountWithToken } from '../support/factories.ts';
import { useTestOrm } from '../support/orm.ts';

const orm = useTestOrm('direct_sql');
let accountId: string;

beforeAll(async () => {
  accountId = (await accountWithToken(orm().em.fork())).accountId;
});

/** The row as the ORM reads it back, without what differs between two rows by nature (id, times). */
async function stored(id: string) {
  const release = await orm().em.fork().findOneOrFail(Release, { id });
  const { id: _id, createdAt: _created, updatedAt: _updated, ...rest } = wrap(release).toObject();
  return rest;
}

describe('insertRows', () => {
  it('writes what the ORM writes: defaults, onCreate values, JSON and relations as mapped', async () => {
    const given = {
      title: 'Same',
      payload: { release: { title: 'Same', nested: [1, { a: null }] }, tracks: [] },
      distributionStoreIds: [301, 302],
    };
    const em = orm().em.fork();
    const viaOrm = em.create(Release, { ...given, account: em.getReference(Account, accountId) });
    await em.flush();
    const direct = crypto.randomUUID();
    await insertRows(orm().em.fork(), Release, [{ id: direct, account: accountId, ...given }]);
    expect(await stored(direct)).toEqual(await stored(viaOrm.id));
    // A row without an id gets one from the entity's onCreate, as em.create gives it.
    await insertRows(orm().em.fork(), Release, [{ account: accountId, payload: given.payload }]);
    const [count] = await runSql<{ n: string }>(
      orm().em.fork(),
      'select count(*) as n from releases where account_id = $1',
      [accountId],
    );
    expect(Number(count?.n)).toBe(3);
  });

  it('a JSON value given as its text is written as that text, not serialised again', async () => {
    const payload = { release: { title: 'Text' }, tracks: [{ title: 'One' }] };
    const [asValue, asText] = [crypto.randomUUID(), crypto.randomUUID()];
    await insertRows(orm().em.fork(), Release, [
      { id: asValue, account: accountId, payload },
      { id: asText, account: accountId, payload: new JsonText(JSON.stringify(payload)) },
    ]);
    expect(await stored(asText)).toEqual(await stored(asValue));
    expect((await stored(asText)).payload).toEqual(payload);
  });

  it('more rows than one statement takes go in as many statements, in order', async () => {
    const release = crypto.randomUUID();
    await insertRows(orm().em.fork(), Release, [{ id: release, account: accountId, payload: {} }]);
    // 9 columns: a statement takes 7,281 rows (65,535 parameters).
    const rows = Array.from({ length: 7_300 }, (_, position) => ({
      release,
      position,
      name: `Artist ${position}`,
      isPrimary: position === 0,
    }));
    const query = pg.Client.prototype.query;
    let inserts = 0;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (String(args[0]).startsWith('insert into "release_artists"')) inserts++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      await insertRows(orm().em.fork(), ReleaseArtist, rows);
    } finally {
      pg.Client.prototype.query = query;
    }
    expect(inserts).toBe(2);
    const read = await runSql<{ position: number; name: string; is_primary: boolean }>(
      orm().em.fork(),
      'select position, name, is_primary from release_artists where release_id = $1 order by position',
      [release],
    );
    expect(read).toHaveLength(7_300);
    expect(read[7_281]).toEqual({ position: 7_281, name: 'Artist 7281', is_primary: false });
    expect(read.every((row, i) => row.position === i)).toBe(true);
  });

  it("a constraint's violation comes back as the ORM's exception, and the transaction's statements see its writes", async () => {
    const release = crypto.randomUUID();
    await expect(
      orm()
        .em.fork()
        .transactional(async (tem) => {
          await insertRows(tem, Release, [{ id: release, account: accountId, payload: {} }]);
          const [seen] = await runSql(tem, 'select id from releases where id = $1', [release]);
          expect(seen).toEqual({ id: release });
          // Not yet committed: the pool does not see it.
          expect(await runSql(orm().em.fork(), 'select id from releases where id = $1', [release])).toEqual(
            [],
          );
          await insertRows(tem, Release, [{ id: release, account: accountId, payload: {} }]);
        }),
    ).rejects.toBeInstanceOf(UniqueConstraintViolationException);
    // Rolled back with the transaction.
    expect(await runSql(orm().em.fork(), 'select id from releases where id = $1', [release])).toEqual([]);
  });

  it('refuses a required column left out', async () => {
    await expect(insertRows(orm().em.fork(), Release, [{ account: accountId }])).rejects.toThrow(
      /Release\.payload is required/,
    );
  });
});
