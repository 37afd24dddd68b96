import { AccountStreamsDocument, ReleaseStreamsDocument } from '../../generated/graphql.ts';
import type { Api } from '../../lib/api.ts';
import { ApiError, NotFoundError } from '../../lib/errors.ts';
import { isReleaseId, type StreamsQuery } from './range.ts';

/** A named total: a store's or a country's streams in the window. */
export interface Total {
  name: string;
  total: number;
}

/** One store's streams per day (or the other stores' together), a value per day of the window. */
export interface Series {
  name: string;
  total: number;
  values: number[];
}

/** The figures the page shows, the same for the whole account and for one release. */
export interface Figures {
  /** The release they are of; null for the whole account. */
  release: { id: string; label: string } | null;
  fromDate: string;
  toDate: string;
  /** Each day of the window, oldest first, and its streams at every store. */
  days: string[];
  daily: number[];
  totalStreams: number;
  avgDailyStreams: number;
  periodChangePct: number | null;
  ingestedThrough: string | null;
  /** Days after the last ingested one were read from the stores' reports as the page asked. */
  live: boolean;
  series: Series[];
  stores: Total[];
  countries: Total[];
}

/** How many stores and countries the bars list. */
export const TOP = 10;

/** A release as the picker and the page name it: its title, and its artist when it has one. */
export const releaseLabel = (release: { title: string | null; primaryArtistName: string | null }) =>
  `${release.title ?? 'Untitled release'}${release.primaryArtistName ? ` · ${release.primaryArtistName}` : ''}`;

const notFound = (code: string, message: string) =>
  new NotFoundError({ type: 'not_found_error', code, message });

/**
 * The figures of the account, or of one release, over the query's window. A release id that is not
 * one, unknown or another account's is a NotFoundError: `releasePerformance` answers another account's
 * release 403 `release_not_owned` (that read's contract), and the page shows "not found" for both, as
 * `release(id)`, asked in the same request, answers.
 */
export async function readFigures(api: Api, query: StreamsQuery): Promise<Figures> {
  const window = { from: query.from, to: query.to };
  if (query.release === null) {
    const { performanceSummary: summary } = await api.query(AccountStreamsDocument, window);
    return figuresOf(null, summary, summary.topStores, false);
  }
  if (!isReleaseId(query.release)) throw notFound('invalid_release_id', 'Not a release id.');
  try {
    const { release, releasePerformance: performance } = await api.query(ReleaseStreamsDocument, {
      id: query.release,
      ...window,
    });
    return figuresOf(
      { id: release.id, label: releaseLabel(release) },
      performance,
      performance.distributors,
      performance.source === 'LIVE',
    );
  } catch (error) {
    if (error instanceof ApiError && error.code === 'release_not_owned')
      throw notFound(error.code, error.message);
    throw error;
  }
}

interface Answer {
  fromDate: string;
  toDate: string;
  kpis: { totalStreams: number; avgDailyStreams: number; periodChangePct: number | null };
  freshness: { ingestedThrough: string | null };
  metrics: { eventDate: string; streamsCount: number }[];
  storeSeries: { storeName: string; total: number; days: { streamsCount: number }[] }[];
  topCountries: { name: string; total: number }[];
}

function figuresOf(release: Figures['release'], answer: Answer, stores: Total[], live: boolean): Figures {
  return {
    release,
    fromDate: answer.fromDate,
    toDate: answer.toDate,
    days: answer.metrics.map((day) => day.eventDate),
    daily: answer.metrics.map((day) => day.streamsCount),
    totalStreams: answer.kpis.totalStreams,
    avgDailyStreams: answer.kpis.avgDailyStreams,
    periodChangePct: answer.kpis.periodChangePct,
    ingestedThrough: answer.freshness.ingestedThrough,
    live,
    series: answer.storeSeries.map((series) => ({
      name: series.storeName,
      total: series.total,
      values: series.days.map((day) => day.streamsCount),
    })),
    stores: stores.slice(0, TOP).map(({ name, total }) => ({ name, total })),
    countries: answer.topCountries.map(({ name, total }) => ({ name, total })),
  };
}
