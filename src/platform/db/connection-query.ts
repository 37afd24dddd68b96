import type pg from 'pg';
import { isResultTypeChange, type PreparedStatementNames } from './prepared-statements.ts';

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;
type Settle = (error: Error | null, result?: unknown) => void;

/**
 * How every connection of `pool` runs a statement sent as `(text, values)` without a callback, which is
 * how the ORM's driver and `runSql` send theirs:
 *
 * - by pg's callback form, with a promise made here around it. Run by pg's promise form, a loop of
 *   checkouts and statements had 1.9–2.4 % of what it allocated survive two young-generation
 *   collections and move to the old generation (garbage by then, left for a full collection), and
 *   each young collection paused 4.3 ms instead of 1.2; by the callback form, 0.01 % (2026-11-27, a
 *   pool of pg alone, `docs/hot-paths.md`). One 20-track submit at a time in one process: 6.2 → 2.9 %
 *   of its allocation promoted, young pauses 13.1 → 7.3 ms (at a hundred submits a second there is
 *   one every half second, and the submits it falls on are the p99).
 * - with `names`, as a prepared statement from its second use: PostgreSQL then parses, analyses and
 *   plans it once per connection instead of on every run (a 20-track submit: 6.3 → 3.5 ms of the
 *   database's CPU, measured with pg alone). A statement refused because its result type changed (a
 *   migration altered a table under it) runs again unnamed, which answers outside a transaction (in
 *   one, the refusal failed the transaction, and its error is the one returned), and its text is
 *   never prepared again.
 *
 * Anything else (a text without values, a query object, a cursor, a call with a callback) goes to pg
 * as it came.
 */
export function routeConnectionQueries(pool: pg.Pool, names: PreparedStatementNames | null): void {
  pool.on('connect', (client) => {
    // The client's own query, looked up on each call (a measurement may wrap the class's).
    const query: Query = (config, values, callback) =>
      (Object.getPrototypeOf(client) as { query: Query }).query.call(client, config, values, callback);
    const settled = (config: unknown, values?: unknown) =>
      new Promise<unknown>((resolve, reject) => {
        const settle: Settle = (error, result) => (error ? reject(error) : resolve(result));
        if (values === undefined) query(config, settle);
        else query(config, values, settle);
      }).catch((error: unknown) => {
        // As pg's promise form does: the stack leads back to the caller, not to the socket's read.
        if (error instanceof Error) Error.captureStackTrace(error);
        throw error;
      });
    const routed: Query = (config, values, callback) => {
      if (typeof config !== 'string' || !Array.isArray(values) || callback !== undefined)
        return query(config, values, callback);
      const name = names && values.length > 0 ? names.nameFor(config) : null;
      if (name === null) return settled(config, values);
      return settled({ name, text: config, values }).catch(async (error: unknown) => {
        if (!isResultTypeChange(error)) throw error;
        names!.refuse(config);
        try {
          return await settled(config, values);
        } catch {
          throw error; // in a transaction, which the refusal ended: its first error is the one to tell
        }
      });
    };
    client.query = routed as unknown as typeof client.query;
  });
}
