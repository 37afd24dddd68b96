import type { MikroORM } from '@mikro-orm/postgresql';
import type { ResumingSubscriber } from '../durability/subscriber.ts';
import { waitFor } from '../support/wait.ts';

/**
 * Waits until every event committed up to `cutoff` (epoch ms) is published and has reached the
 * subscriber and, with `dispatcher`, the webhook dispatcher's persisted cursor; false if it never does
 * within `timeoutMs`.
 */
export function consumedUpTo(
  orm: MikroORM,
  cutoff: number,
  subscriber: ResumingSubscriber,
  options: { dispatcher: boolean; timeoutMs: number },
): Promise<boolean> {
  const query = <T>(sql: string, params: unknown[] = []) => orm.em.fork().execute<T[]>(sql, params);
  return waitFor(
    async () => {
      const [row] = await query<{ waiting: string; last: string | null }>(
        `select count(*) filter (where cursor is null) as waiting, max(cursor) as last
           from outbox_events where created_at <= to_timestamp(?)`,
        [cutoff / 1000],
      );
      const last = Number(row?.last ?? 0);
      if (Number(row?.waiting) > 0 || subscriber.last < last) return false;
      if (!options.dispatcher) return true;
      const [dispatched] = await query<{ cursor: string | null }>(
        'select max(cursor) as cursor from webhook_dispatch_cursor',
      );
      return Number(dispatched?.cursor ?? 0) >= last;
    },
    (done) => done,
    options.timeoutMs,
  ).catch(() => false);
}
