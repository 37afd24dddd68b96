import { z } from 'zod';
import { FACTS, pageText } from '../../../schema/facade-facts.ts';
import {
  PERFORMANCE_SUMMARY_FIELDS,
  RELEASE_PERFORMANCE_FIELDS,
  STREAM_BREAKDOWN_FIELDS,
} from '../../selections.ts';
import { defineTool, READ_ONLY, type ToolRow } from '../tool.ts';

const fromDate = z
  .string()
  .max(10)
  .optional()
  .describe('First day, YYYY-MM-DD (default: 29 days before toDate).');
const toDate = z
  .string()
  .max(10)
  .optional()
  .describe('Last day, YYYY-MM-DD (default: today, UTC). The window is at most two years.');
const limit = (what: string) =>
  z
    .int()
    .min(FACTS.topListSize.min)
    .max(FACTS.topListSize.max)
    .default(FACTS.topListSize.default)
    .describe(`How many ${what} to list, ${pageText(FACTS.topListSize, 'in parentheses')}.`);

// The additions to the spec's tools, named like the spec's own arguments and fields (camelCase).
const breakdownArgs = {
  storeSeriesLimit: limit('stores with a series of their own in storeSeries (the rest summed in one)'),
  topCountriesLimit: limit('countries in topCountries'),
};
const BREAKDOWN_TEXT =
  ' Also storeSeries [{storeId, storeName, total, days [{eventDate, streamsCount}]}]: streams per day at ' +
  'each store, most first, the stores past storeSeriesLimit summed in one last series (storeId null); and ' +
  'topCountries [{country (ISO 3166-1 alpha-2), name, total}], most first.';
const breakdownVariables = (a: { storeSeriesLimit: number; topCountriesLimit: number }) => ({
  storeSeriesLimit: a.storeSeriesLimit,
  topCountriesLimit: a.topCountriesLimit,
});

export const analyticsTools: ToolRow[] = [
  defineTool({
    name: 'get_performance_summary',
    title: 'Get performance summary',
    description:
      'Streaming performance of all your releases over a window (default the trailing 30 days, up to two ' +
      'years): fromDate, toDate, releases {total, withDistributorId}, metrics [{eventDate, streamsCount}] per ' +
      'day, kpis {totalStreams, avgDailyStreams, periodChangePct (vs the preceding equal window, null without ' +
      'prior data), topStore {name, share}}, topStores [{id, name, total}] and topReleases. Store -1300 is the ' +
      `video-music platform.${BREAKDOWN_TEXT}`,
    annotations: READ_ONLY,
    args: z.object({
      fromDate,
      toDate,
      topReleasesLimit: limit('top releases'),
      topStoresLimit: limit('top stores'),
      ...breakdownArgs,
    }),
    document: `query AgentPerformanceSummary($fromDate: String, $toDate: String, $topReleasesLimit: Int, $topStoresLimit: Int, $storeSeriesLimit: Int, $topCountriesLimit: Int) {
      summary: performanceSummary(fromDate: $fromDate, toDate: $toDate, topReleasesLimit: $topReleasesLimit, topStoresLimit: $topStoresLimit) {
        ${PERFORMANCE_SUMMARY_FIELDS} ${STREAM_BREAKDOWN_FIELDS} } }`,
    variables: (a) => ({
      fromDate: a.fromDate,
      toDate: a.toDate,
      topReleasesLimit: a.topReleasesLimit,
      topStoresLimit: a.topStoresLimit,
      ...breakdownVariables(a),
    }),
    select: 'summary',
    aliases: ['performance_summary', 'get_analytics', 'get_streams'],
  }),
  defineTool({
    name: 'get_release_performance',
    title: 'Get release performance',
    description:
      "One release's streams over a window (default the trailing 30 days, up to two years): metrics per day, " +
      'kpis (topStore is null when filtered to one store), distributors [{id, name, total}], tracks ' +
      '[{trackId, trackName, artistName, streamsCount}] with includeTracks, and source (cache: from the ' +
      'ingested tables; live: recent days read from the distributor now). distributorId filters to one store ' +
      `(-1300 = video-music platform). Another user's release returns 403.${BREAKDOWN_TEXT}`,
    annotations: READ_ONLY,
    args: z.object({
      releaseId: z.string().min(1).max(100).describe('A release id (UUID) of yours.'),
      fromDate,
      toDate,
      distributorId: z.int().optional().describe('One store id; -1300 is the video-music platform.'),
      includeTracks: z.boolean().default(false).describe('List the tracks with their streams.'),
      ...breakdownArgs,
    }),
    document: `query AgentReleasePerformance($id: ID!, $fromDate: String, $toDate: String, $distributorId: Int, $includeTracks: Boolean, $storeSeriesLimit: Int, $topCountriesLimit: Int) {
      performance: releasePerformance(releaseId: $id, fromDate: $fromDate, toDate: $toDate, distributorId: $distributorId, includeTracks: $includeTracks) {
        ${RELEASE_PERFORMANCE_FIELDS} ${STREAM_BREAKDOWN_FIELDS} } }`,
    variables: (a) => ({
      id: a.releaseId,
      fromDate: a.fromDate,
      toDate: a.toDate,
      distributorId: a.distributorId,
      includeTracks: a.includeTracks,
      ...breakdownVariables(a),
    }),
    select: 'performance',
    aliases: ['release_performance', 'get_release_analytics', 'get_release_streams'],
  }),
];
