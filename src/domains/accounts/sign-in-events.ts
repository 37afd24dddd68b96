import type { EntityManager } from '@mikro-orm/postgresql';
import type { SignInEventKind } from './sign-in-event.entity.ts';

/** How long sign-in events are kept before the OAuth sweeper deletes them (docs/oauth.md). */
export const SIGN_IN_EVENTS_KEPT_DAYS = 90;

// One statement whether or not the email has an account: it inserts nothing for an unknown address, so
// the work (and the answer) does not tell the two apart.
const RECORD = `insert into sign_in_events (account_id, kind, occurred_at)
  select id, ?, ? from accounts where email = ?`;

/**
 * Records a failed sign-in (or the failure that locked) of the account with this normalised email, if
 * there is one. On the connection pool, outside any transaction the caller runs in: the sign-in's error
 * rolls that transaction back, and the record must outlive it.
 */
export async function recordSignInEvent(
  em: EntityManager,
  email: string,
  kind: SignInEventKind,
  now = new Date(),
): Promise<void> {
  await em.getConnection().execute(RECORD, [kind, now, email], 'run');
}

/** Deletes sign-in events older than the retention; how many went. */
export async function pruneSignInEvents(em: EntityManager, now = new Date()): Promise<number> {
  const [row] = await em.getConnection().execute<{ count: string }[]>(
    `with gone as (delete from sign_in_events where occurred_at <= ?::timestamptz - interval '${SIGN_IN_EVENTS_KEPT_DAYS} days'
       returning 1) select count(*) from gone`,
    [now],
  );
  return Number(row?.count ?? 0);
}
