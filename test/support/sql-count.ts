import pg from 'pg';
import { currentRequestId } from '../../src/platform/request-scope.ts';

/**
 * Counts the SQL statements each HTTP request sends, by its request id: every pooled connection is a
 * pg.Client, and the request scope follows the query into the driver. A measurement, not a stand-in:
 * the statements still run.
 */
export function countStatementsByRequest(): { count(requestId: string): number; stop(): void } {
  const counts = new Map<string, number>();
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const requestId = currentRequestId();
    if (requestId) counts.set(requestId, (counts.get(requestId) ?? 0) + 1);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return {
    count: (requestId) => counts.get(requestId) ?? 0,
    stop: () => {
      pg.Client.prototype.query = original;
    },
  };
}
