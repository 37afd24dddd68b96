import { FACTS, pageText } from '../../../schema/facade-facts.ts';
import {
  PERFORMANCE_SUMMARY_FIELDS,
  RELEASE_PERFORMANCE_FIELDS,
  STREAM_BREAKDOWN_FIELDS,
  STREAMS_FRESHNESS_FIELDS,
} from '../../selections.ts';
import { boolean, integer, integerFrom, pathParam, query, type RestRoute } from '../route.ts';

const TAG = 'Analytics';
const DATE = { type: 'string', format: 'date' };
const window = {
  fromDate: query('from_date', undefined, 'First day, YYYY-MM-DD (default 29 days before to_date).', DATE),
  toDate: query(
    'to_date',
    undefined,
    'Last day, YYYY-MM-DD (default today, UTC); at most two years in all.',
    DATE,
  ),
};
const limit = (name: string, what: string, parse = integer) =>
  query(name, parse, `How many ${what} to list (${pageText(FACTS.topListSize)}).`, {
    minimum: FACTS.topListSize.min,
    maximum: FACTS.topListSize.max,
  });
// The added fields' limits are arguments of fields, not of the query: checked here, so a refusal names
// the query parameter.
const breakdownLimits = {
  storeSeriesLimit: limit(
    'store_series_limit',
    'stores with a series of their own in storeSeries (the rest summed in one)',
    integerFrom(FACTS.topListSize.min, FACTS.topListSize.max),
  ),
  topCountriesLimit: limit(
    'top_countries_limit',
    'countries in topCountries',
    integerFrom(FACTS.topListSize.min, FACTS.topListSize.max),
  ),
};

export const analyticsRoutes: RestRoute[] = [
  {
    operationId: 'getPerformanceSummary',
    method: 'GET',
    path: '/analytics/summary',
    summary:
      'Your streams over a window: daily series, KPIs, top stores and releases, per-store series, countries, freshness',
    tag: TAG,
    auth: 'bearer',
    document: `query GetPerformanceSummary($fromDate: String, $toDate: String, $topReleasesLimit: Int, $topStoresLimit: Int, $storeSeriesLimit: Int, $topCountriesLimit: Int) {
      summary: performanceSummary(fromDate: $fromDate, toDate: $toDate, topReleasesLimit: $topReleasesLimit, topStoresLimit: $topStoresLimit) {
        ${PERFORMANCE_SUMMARY_FIELDS} ${STREAM_BREAKDOWN_FIELDS} ${STREAMS_FRESHNESS_FIELDS} } }`,
    variables: {
      ...window,
      topReleasesLimit: limit('top_releases_limit', 'releases'),
      topStoresLimit: limit('top_stores_limit', 'stores'),
      ...breakdownLimits,
    },
    select: 'summary',
  },
  {
    operationId: 'getReleasePerformance',
    method: 'GET',
    path: '/releases/:id/analytics',
    summary:
      "One release's streams over a window, at every store or one, per store and country, per track on request; 403 if not yours",
    tag: TAG,
    auth: 'bearer',
    document: `query GetReleasePerformance($id: ID!, $fromDate: String, $toDate: String, $distributorId: Int, $includeTracks: Boolean, $storeSeriesLimit: Int, $topCountriesLimit: Int) {
      performance: releasePerformance(releaseId: $id, fromDate: $fromDate, toDate: $toDate, distributorId: $distributorId, includeTracks: $includeTracks) {
        ${RELEASE_PERFORMANCE_FIELDS} ${STREAM_BREAKDOWN_FIELDS} ${STREAMS_FRESHNESS_FIELDS} } }`,
    variables: {
      id: pathParam('id'),
      ...window,
      distributorId: query('distributor_id', integer, 'One store id (-1300: the video-music platform).'),
      includeTracks: query('include_tracks', boolean, 'List the tracks with their streams.', {
        type: 'boolean',
      }),
      ...breakdownLimits,
    },
    select: 'performance',
  },
];
