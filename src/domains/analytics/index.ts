export type { CountryTotal } from './countries.ts';
export { dayOf } from './days.ts';
export { ingestMissedDays, readFreshness } from './ingest.ts';
export type { DailyStreams, Kpis, StoreTotal } from './kpis.ts';
export {
  PERFORMANCE_SOURCES,
  type ReleasePerformance,
  readReleasePerformance,
  type TrackPerformance,
} from './read-release-performance.ts';
export {
  type PerformanceSummary,
  readPerformanceSummary,
  TOP_LIST_SIZE,
  type TopRelease,
} from './read-summary.ts';
export { INGEST_QUEUE, ingestQueue, nextRunAt } from './schedule.ts';
export { OTHER_STORES_NAME, type StoreDailySeries } from './store-series.ts';
export { resolveWindow } from './window.ts';
