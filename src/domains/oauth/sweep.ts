import type { EntityManager } from '@mikro-orm/postgresql';
import { pruneSessionTokens, pruneSignInEvents } from '../accounts/index.ts';

/** Expired OAuth access tokens stay listed this long (a person may wonder why an agent stopped). */
const EXPIRED_ACCESS_TOKENS_KEPT = '7 days';

/**
 * Deletes the authorization server's expired models, long-expired OAuth access tokens, web sessions and
 * their dashboard tokens once expired or signed out, and sign-in events past their retention.
 */
export async function sweepOAuth(
  em: EntityManager,
  now = new Date(),
): Promise<{ models: number; tokens: number; signInEvents: number }> {
  const models = await em.execute<{ count: string }[]>(
    `with gone as (delete from oauth_models where expires_at <= ? returning 1) select count(*) from gone`,
    [now],
  );
  const tokens = await em.execute<{ count: string }[]>(
    `with gone as (delete from access_tokens where kind = 'oauth' and expires_at <= ?::timestamptz - interval '${EXPIRED_ACCESS_TOKENS_KEPT}'
       returning 1) select count(*) from gone`,
    [now],
  );
  await em.execute('delete from web_sessions where expires_at <= ?', [now]);
  await pruneSessionTokens(em, now);
  const signInEvents = await pruneSignInEvents(em, now);
  return { models: Number(models[0]?.count ?? 0), tokens: Number(tokens[0]?.count ?? 0), signInEvents };
}
