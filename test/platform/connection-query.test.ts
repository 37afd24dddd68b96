import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeConnectionQueries } from '../../src/platform/db/connection-query.ts';
import { runSql } from '../../src/platform/db/direct-sql.ts';
import { PreparedStatementNames } from '../../src/platform/db/prepared-statements.ts';
import { useOneConnectionOrms } from '../support/orm.ts';

/** What each call to pg's own query was given: whether a callback came with it, and its text. */
function watchPgQueries() {
  const calls: { text: string; callback: boolean }[] = [];
  const original = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const [config] = args;
    const text = typeof config === 'string' ? config : String((config as { text?: string }).text);
    calls.push({ text, callback: args.some((arg) => typeof arg === 'function') });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original);
  return { calls, restore: () => spy.mockRestore() };
}

describe('how the ORM connections run statements', () => {
  const { open, url } = useOneConnectionOrms('connection_query');
  let watching: ReturnType<typeof watchPgQueries> | undefined;
  afterEach(() => watching?.restore());

  it.each([true, false])(
    'by pg’s callback form, with or without prepared statements (%s), answering as before',
    async (preparedStatements) => {
      const orm = await open(preparedStatements);
      await runSql(orm.em.fork(), 'select 1'); // the connection is made before watching
      watching = watchPgQueries();
      const text = 'select $1::int * 2 as twice';
      const answers = [];
      for (let i = 1; i <= 3; i++) answers.push(await runSql(orm.em.fork(), text, [i]));
      expect(answers).toEqual([[{ twice: 2 }], [{ twice: 4 }], [{ twice: 6 }]]);
      // A transaction's statements too (the driver sends begin and commit with empty values).
      await orm.em.fork().transactional((em) => runSql(em, text, [4]));
      const sent = watching.calls.filter((call) => ['begin', 'commit', text].includes(call.text));
      expect(sent.map((call) => call.text)).toEqual([text, text, text, 'begin', text, 'commit']);
      expect(sent.every((call) => call.callback)).toBe(true);
    },
  );

  it('rejects with PostgreSQL’s error, its stack leading back to the caller', async () => {
    const orm = await open(true);
    const error = (await runSql(orm.em.fork(), 'select id from no_such_table where id = $1', [1]).catch(
      (thrown: unknown) => thrown,
    )) as Error & { code?: string };
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('42P01');
    expect(error.stack).toContain('connection-query.test.ts');
  });

  it('leaves a call that brings its own callback, or no values, to pg as it came', async () => {
    const pool = new pg.Pool({ connectionString: url(), max: 1 });
    routeConnectionQueries(pool, new PreparedStatementNames());
    const client = await pool.connect();
    try {
      watching = watchPgQueries();
      const own = vi.fn();
      await new Promise<void>((resolve, reject) =>
        client.query('select $1::int as one', [1], (error, result) => {
          own(result?.rows);
          return error ? reject(error) : resolve();
        }),
      );
      expect(own).toHaveBeenCalledWith([{ one: 1 }]);
      expect((await client.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
      expect(watching.calls).toEqual([
        { text: 'select $1::int as one', callback: true },
        { text: 'select 2 as two', callback: false },
      ]);
    } finally {
      client.release();
      await pool.end();
    }
  });
});
