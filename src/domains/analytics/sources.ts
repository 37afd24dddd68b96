import type { EntityManager } from '@mikro-orm/postgresql';
import { VIDEO_MUSIC_STORE } from '../catalog/index.ts';
import type { Day } from './days.ts';
import type { StreamSource } from './stream-reports.ts';

const LIVE = `
with live as (
  select d.release_id, d.store_id, r.account_id,
         (coalesce(d.live_at, d.updated_at) at time zone 'UTC')::date as live_day
  from deliveries d join releases r on r.id = d.release_id
  where d.status in ('live', 'takedown_requested') and not r.sandbox_sample
    and (?::uuid is null or d.release_id = ?::uuid)
), firsts as (
  select release_id, account_id, min(live_day) as release_day from live group by release_id, account_id
)
select l.release_id, l.store_id, l.account_id, to_char(l.live_day, 'YYYY-MM-DD') as live_day,
       to_char(f.release_day, 'YYYY-MM-DD') as release_day
from live l join firsts f using (release_id)
where l.live_day <= ?::date
union all
select f.release_id, ${VIDEO_MUSIC_STORE.storeId}, f.account_id, to_char(f.release_day, 'YYYY-MM-DD'),
       to_char(f.release_day, 'YYYY-MM-DD')
from firsts f
where f.release_day <= ?::date
order by 1, 2`;

interface Row {
  release_id: string;
  store_id: number;
  account_id: string;
  live_day: string;
  release_day: string;
}

/**
 * Every release × store that plays on `day` (a store whose takedown is pending plays until it is
 * confirmed), with its tracks: each live store from the day it went
 * live, and the video-music platform (store -1300) from the release's first live day. `releaseId`
 * narrows it to one release.
 */
export async function sourcesOn(em: EntityManager, day: Day, releaseId: string | null = null) {
  const rows = await em.execute<Row[]>(LIVE, [releaseId, releaseId, day, day]);
  const releaseIds = [...new Set(rows.map((row) => row.release_id))];
  const tracks = releaseIds.length
    ? await em.execute<{ id: string; release_id: string }[]>(
        `select id, release_id from release_tracks
         where release_id in (select value::uuid from jsonb_array_elements_text(?::jsonb))
         order by release_id, position`,
        [JSON.stringify(releaseIds)],
      )
    : [];
  const tracksOf = Map.groupBy(tracks, (track) => track.release_id);
  return rows.map(
    (row): StreamSource => ({
      accountId: row.account_id,
      releaseId: row.release_id,
      storeId: row.store_id,
      liveDay: row.live_day,
      releaseDay: row.release_day,
      trackIds: (tracksOf.get(row.release_id) ?? []).map((track) => track.id),
    }),
  );
}
