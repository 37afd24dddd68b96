import { beforeAll, describe, expect, it } from 'vitest';
import { insertInTransaction, installJobs, sendInTransaction } from '../../src/platform/jobs/index.ts';
import { useTestOrm } from '../support/orm.ts';

const QUEUE = 'test.transactional';

describe('jobs sent in the caller’s transaction', () => {
  const orm = useTestOrm('jobs');

  beforeAll(async () => {
    await installJobs(String(orm().config.get('clientUrl')), [{ name: QUEUE, policy: 'short' }]);
  });

  async function jobs(key: string) {
    return orm()
      .em.fork()
      .execute<{ state: string; data: { n: number } }[]>(
        'select state, data from pgboss.job where name = ? and singleton_key = ?',
        [QUEUE, key],
      );
  }

  async function stateChange(em: Parameters<typeof sendInTransaction>[0], key: string) {
    await em.execute(
      'insert into sandbox_controls (id, offline, instructions, updated_at) values (?, false, ?, now())',
      [key, '{}'],
    );
  }

  it('a committed transaction leaves exactly one job, with its state change', async () => {
    const id = await orm()
      .em.fork()
      .transactional(async (tem) => {
        await stateChange(tem, 'commit');
        return sendInTransaction(tem, QUEUE, { n: 1 }, { singletonKey: 'commit' });
      });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await jobs('commit')).toEqual([{ state: 'created', data: { n: 1 } }]);
    const [row] = await orm()
      .em.fork()
      .execute('select count(*)::int as n from sandbox_controls where id = ?', ['commit']);
    expect(row).toEqual({ n: 1 });
  });

  it('a rolled-back transaction leaves no job and no state change', async () => {
    await expect(
      orm()
        .em.fork()
        .transactional(async (tem) => {
          await stateChange(tem, 'rollback');
          await sendInTransaction(tem, QUEUE, { n: 2 }, { singletonKey: 'rollback' });
          expect(
            await tem.execute('select count(*)::int as n from pgboss.job where singleton_key = ?', [
              'rollback',
            ]),
          ).toEqual([{ n: 1 }]);
          throw new Error('abort');
        }),
    ).rejects.toThrow('abort');
    expect(await jobs('rollback')).toEqual([]);
    const [row] = await orm()
      .em.fork()
      .execute('select count(*)::int as n from sandbox_controls where id = ?', ['rollback']);
    expect(row).toEqual({ n: 0 });
  });

  it('the job is invisible to other sessions until the transaction commits', async () => {
    await orm()
      .em.fork()
      .transactional(async (tem) => {
        await sendInTransaction(tem, QUEUE, { n: 3 }, { singletonKey: 'invisible' });
        expect(await jobs('invisible')).toEqual([]);
      });
    expect(await jobs('invisible')).toHaveLength(1);
  });

  it('a queued job with the same key is not sent twice (short policy), in one transaction or two', async () => {
    const em = orm().em.fork();
    const again = await em.transactional(async (tem) => {
      await sendInTransaction(tem, QUEUE, { n: 4 }, { singletonKey: 'twice' });
      return sendInTransaction(tem, QUEUE, { n: 5 }, { singletonKey: 'twice' });
    });
    expect(again).toBeNull();
    await em.transactional((tem) =>
      insertInTransaction(tem, QUEUE, [
        { data: { n: 6 }, singletonKey: 'twice' },
        { data: { n: 7 }, singletonKey: 'once' },
      ]),
    );
    expect(await jobs('twice')).toEqual([{ state: 'created', data: { n: 4 } }]);
    expect(await jobs('once')).toEqual([{ state: 'created', data: { n: 7 } }]);
  });

  it('refuses to send outside a transaction', async () => {
    await expect(sendInTransaction(orm().em.fork(), QUEUE, { n: 8 })).rejects.toThrow(
      /inside the transaction/,
    );
  });
});
