import { UniqueConstraintViolationException, wrap } from '@mikro-orm/core';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { Account } from '../../src/domains/accounts/index.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { ReleaseArtist } from '../../src/domains/releases/release-artist.entity.ts';
import { insertRows, insertTogether, JsonText, rowsOf, runSql } from '../../src/platform/db/direct-sql.ts';
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

/** Counts the statements sent while `run` runs (those starting with `prefix`, when given). */
async function counted(run: () => Promise<void>, prefix = ''): Promise<number> {
  const query = pg.Client.prototype.query;
  let statements = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const sql = args[0] as string | { text?: string };
    if ((typeof sql === 'string' ? sql : (sql.text ?? '')).startsWith(prefix)) statements++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = query;
  }
  return statements;
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
    const inserts = await counted(
      () => insertRows(orm().em.fork(), ReleaseArtist, rows),
      'insert into "release_artists"',
    );
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

describe('insertTogether', () => {
  const artists = (release: string, count: number) =>
    Array.from({ length: count }, (_, position) => ({
      release,
      position,
      name: `Artist ${position}`,
      isPrimary: position === 0,
    }));

  it('writes several entities in one statement, a part referencing the rows of another', async () => {
    const release = crypto.randomUUID();
    const statements = await counted(() =>
      insertTogether(orm().em.fork(), [
        rowsOf(Release, [{ id: release, account: accountId, payload: { release: {}, tracks: [] } }]),
        rowsOf(ReleaseArtist, []),
        rowsOf(ReleaseArtist, artists(release, 3)),
      ]),
    );
    expect(statements).toBe(1);
    const read = await runSql<{ name: string }>(
      orm().em.fork(),
      'select name from release_artists where release_id = $1 order by position',
      [release],
    );
    expect(read.map((row) => row.name)).toEqual(['Artist 0', 'Artist 1', 'Artist 2']);
    expect((await stored(release)).payload).toEqual({ release: {}, tracks: [] });
  });

  it('is all or nothing: a part that fails leaves no row of the others', async () => {
    const release = crypto.randomUUID();
    const [artist] = artists(release, 1);
    await expect(
      insertTogether(orm().em.fork(), [
        rowsOf(Release, [{ id: release, account: accountId, payload: {} }]),
        // The same position twice: the unique index fails the whole statement.
        rowsOf(ReleaseArtist, [artist!, { ...artist!, name: 'Again' }]),
      ]),
    ).rejects.toBeInstanceOf(UniqueConstraintViolationException);
    const other = crypto.randomUUID();
    await expect(
      insertTogether(orm().em.fork(), [
        rowsOf(Release, [{ id: other, account: accountId, payload: {} }]),
        // A release that does not exist: the foreign key fails the whole statement.
        rowsOf(ReleaseArtist, artists(crypto.randomUUID(), 1)),
      ]),
    ).rejects.toThrow(/foreign key/);
    const left = await runSql(orm().em.fork(), 'select id from releases where id in ($1, $2)', [
      release,
      other,
    ]);
    expect(left).toEqual([]);
  });

  it('parts beyond one statement go in one after another, every row written', async () => {
    const release = crypto.randomUUID();
    const statements = await counted(() =>
      insertTogether(orm().em.fork(), [
        rowsOf(Release, [{ id: release, account: accountId, payload: {} }]),
        rowsOf(ReleaseArtist, artists(release, 7_300)),
      ]),
    );
    // The release, then the artists in two (7,281 rows of 9 columns fill one statement).
    expect(statements).toBe(3);
    const [count] = await runSql<{ n: string }>(
      orm().em.fork(),
      'select count(*) as n from release_artists where release_id = $1',
      [release],
    );
    expect(Number(count?.n)).toBe(7_300);
  });
});
