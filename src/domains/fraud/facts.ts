import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * What the platform records about one account that bears on fraud risk. Every figure is about the
 * account itself; `provenanceCohort` counts other accounts but only as a number, never who they are.
 */
export interface AccountFacts {
  emailDomain: string;
  accountAgeDays: number;
  /** Most releases the account submitted within any 24 hours. */
  releasesIn24Hours: number;
  submittedReleases: number;
  /** Submitted releases with at least one store taken down or being taken down. */
  releasesTakenDown: number;
  /** Accounts of the same partner or provenance created within 24 hours of this one (itself included). */
  provenanceCohort: number;
  tracks: number;
  aiTracks: number;
  /** The account's audio files a registry-match check found matching someone else's recording. */
  registryMatches: number;
  /** Streams of the last 90 days, and the largest share one store and one day took of them. */
  recentStreams: number;
  topStoreShare: number;
  topDayShare: number;
  /** Failed password sign-ins (locking ones included) and locks in the last 30 days. */
  failedSignIns: number;
  signInLocks: number;
}

const FACTS = `
with a as (select id, email, provenance, created_at from accounts where id = ?),
subs as (select id, submitted_at from releases
  where account_id = (select id from a) and status = 'submitted' and not sandbox_sample),
burst as (
  select coalesce(max(c), 0)::int as n from (
    select count(*) over (order by submitted_at range between current row and interval '24 hours' following) as c
    from subs where submitted_at is not null) x
),
streams as (
  select store_id, day, sum(streams) as streams from stream_store_days
  where account_id = (select id from a) and day > (?::date - 90)
  group by grouping sets ((store_id), (day))
)
select
  split_part(a.email, '@', 2) as email_domain,
  extract(epoch from (?::timestamptz - a.created_at)) / 86400 as age_days,
  (select n from burst) as burst,
  (select count(*) from subs)::int as submitted,
  (select count(*) from subs where exists (
     select 1 from deliveries d where d.release_id = subs.id and d.status in ('taken_down', 'takedown_requested')))::int
     as taken_down,
  case when a.provenance is null then 1 else (
    select count(*) from accounts o where o.provenance = a.provenance
      and o.created_at between a.created_at - interval '24 hours' and a.created_at + interval '24 hours')
  end::int as cohort,
  (select count(*) from release_tracks t where t.release_id in (select id from subs))::int as tracks,
  (select count(*) from release_tracks t where t.release_id in (select id from subs) and t.ai)::int as ai_tracks,
  (select count(*) from audio_analyses x join stored_files f on f.id = x.file_id
     where f.account_id = a.id and x.kind = 'registry_match' and x.result->>'matched' = 'true'
       and coalesce(x.result->'bestMatch'->>'ownRelease', 'false') <> 'true')::int as registry,
  coalesce((select sum(streams) from streams where store_id is not null), 0)::float8 as recent,
  coalesce((select max(streams) from streams where store_id is not null), 0)::float8 as top_store,
  coalesce((select max(streams) from streams where day is not null), 0)::float8 as top_day,
  (select count(*) from sign_in_events e where e.account_id = a.id
     and e.occurred_at > ?::timestamptz - interval '30 days')::int as failed_sign_ins,
  (select count(*) from sign_in_events e where e.account_id = a.id and e.kind = 'locked'
     and e.occurred_at > ?::timestamptz - interval '30 days')::int as sign_in_locks
from a`;

interface Row {
  email_domain: string;
  age_days: number | string;
  burst: number;
  submitted: number;
  taken_down: number;
  cohort: number;
  tracks: number;
  ai_tracks: number;
  registry: number;
  recent: number;
  top_store: number;
  top_day: number;
  failed_sign_ins: number;
  sign_in_locks: number;
}

export async function readAccountFacts(
  em: EntityManager,
  accountId: string,
  now: Date,
): Promise<AccountFacts> {
  const [row] = await em.execute<Row[]>(FACTS, [accountId, now.toISOString().slice(0, 10), now, now, now]);
  if (!row) throw new Error(`account ${accountId} vanished while scoring`);
  return {
    emailDomain: row.email_domain.toLowerCase(),
    accountAgeDays: Number(row.age_days),
    releasesIn24Hours: row.burst,
    submittedReleases: row.submitted,
    releasesTakenDown: row.taken_down,
    provenanceCohort: row.cohort,
    tracks: row.tracks,
    aiTracks: row.ai_tracks,
    registryMatches: row.registry,
    recentStreams: row.recent,
    topStoreShare: row.recent > 0 ? row.top_store / row.recent : 0,
    topDayShare: row.recent > 0 ? row.top_day / row.recent : 0,
    failedSignIns: row.failed_sign_ins,
    signInLocks: row.sign_in_locks,
  };
}
