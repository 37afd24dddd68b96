import type { EntityManager } from '@mikro-orm/postgresql';
import { windowTotals } from './read-window-totals.ts';
import type { StoreDay } from './store-series.ts';
import type { DateWindow } from './window.ts';

type Window = Pick<DateWindow, 'fromDate' | 'toDate'>;

const STORE_DAY = `to_char(day, 'YYYY-MM-DD') as day, store_id as "storeId", streams::float8 as streams`;

/** The account's streams per day and store over a window (its rollup: days × stores rows). */
export function readAccountStoreDays(em: EntityManager, accountId: string, window: Window) {
  return em.execute<StoreDay[]>(
    `select ${STORE_DAY} from stream_store_days where account_id = ? and day between ?::date and ?::date`,
    [accountId, window.fromDate, window.toDate],
  );
}

/** A release's streams per day and store over a window, optionally at one store (its raw rows). */
export function readReleaseStoreDays(
  em: EntityManager,
  releaseId: string,
  window: Window,
  storeId: number | null,
) {
  return em.execute<StoreDay[]>(
    `select ${STORE_DAY} from stream_days
     where release_id = ? and day between ?::date and ?::date and (?::int is null or store_id = ?::int)`,
    [releaseId, window.fromDate, window.toDate, storeId, storeId],
  );
}

/** The account's streams per country over a window (whole months and part-months of its rollups). */
export async function readAccountCountries(
  em: EntityManager,
  accountId: string,
  window: DateWindow,
): Promise<Map<string, number>> {
  const totals = await windowTotals(
    em,
    accountId,
    window,
    {
      months: 'stream_account_country_months',
      days: 'stream_account_country_days',
      owner: 'account_id',
      key: 'country',
    },
    null,
  );
  return new Map(totals.map((t) => [t.key, t.streams]));
}

/**
 * A release's streams per country over a window: every store from its country rollups (whole months
 * and part-months), or one store from its raw country rows.
 */
export async function readReleaseCountries(
  em: EntityManager,
  releaseId: string,
  window: DateWindow,
  storeId: number | null,
): Promise<Map<string, number>> {
  const totals =
    storeId === null
      ? await windowTotals(
          em,
          releaseId,
          window,
          {
            months: 'stream_release_country_months',
            days: 'stream_release_country_days',
            owner: 'release_id',
            key: 'country',
          },
          null,
        )
      : await em.execute<{ key: string; streams: number }[]>(
          `select country as key, sum(streams)::float8 as streams from stream_country_days
           where release_id = ? and day between ?::date and ?::date and store_id = ?
           group by country`,
          [releaseId, window.fromDate, window.toDate, storeId],
        );
  return new Map(totals.map((t) => [t.key, t.streams]));
}
