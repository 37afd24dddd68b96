import pg from 'pg';
import { currentRequestId } from '../../src/platform/request-scope.ts';

/** The commit's announcement to the other processes (cache invalidation), sent after the response. */
export const COMMIT_ANNOUNCEMENT = /^select pg_notify\(/;

/**
 * Counts the SQL statements each HTTP request sends, by its request id, and keeps their texts in order:
 * every pooled connection is a pg.Client, and the request scope follows the query into the driver. A
 * measurement, not a stand-in: the statements still run. Statements matching `ignore` are not counted.
 */
export function countStatementsByRequest(options: { ignore?: RegExp } = {}): {
  count(requestId: string): number;
  texts(requestId: string): string[];
  stop(): void;
} {
  const counts = new Map<string, string[]>();
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const requestId = currentRequestId();
    const sql = args[0] as string | { text?: string } | undefined;
    const text = typeof sql === 'string' ? sql : (sql?.text ?? '');
    if (requestId && !options.ignore?.test(text.trim())) {
      const texts = counts.get(requestId) ?? [];
      texts.push(text.trim());
      counts.set(requestId, texts);
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return {
    count: (requestId) => counts.get(requestId)?.length ?? 0,
    texts: (requestId) => counts.get(requestId) ?? [],
    stop: () => {
      pg.Client.prototype.query = original;
    },
  };
}
