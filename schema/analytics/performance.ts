import {
  type CountryTotal,
  type DailyStreams,
  type Kpis,
  OTHER_STORES_NAME,
  PERFORMANCE_SOURCES,
  type PerformanceSummary,
  type ReleasePerformance,
  readFreshness,
  readPerformanceSummary,
  readReleasePerformance,
  resolveWindow,
  type StoreDailySeries,
  type StoreTotal,
  TOP_LIST_SIZE,
  type TopRelease,
  type TrackPerformance,
} from '../../src/domains/analytics/index.ts';
import { builder, MCP } from '../builder.ts';
import { type Context, requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';

const STREAMS = 'Streams (a whole number; Float because long windows of large catalogues pass 2^31).';
const DATE = 'A UTC calendar date, YYYY-MM-DD.';

const LIMIT_MESSAGE = { message: `must be between ${TOP_LIST_SIZE.min} and ${TOP_LIST_SIZE.max}` };
const limitArg = (what: string) => ({
  required: false as const,
  defaultValue: TOP_LIST_SIZE.default,
  description: `How many ${what} to list, ${TOP_LIST_SIZE.min}..${TOP_LIST_SIZE.max} (default ${TOP_LIST_SIZE.default}).`,
  validate: {
    int: true,
    min: [TOP_LIST_SIZE.min, LIMIT_MESSAGE] as [number, typeof LIMIT_MESSAGE],
    max: [TOP_LIST_SIZE.max, LIMIT_MESSAGE] as [number, typeof LIMIT_MESSAGE],
  },
});

const STORE_SERIES =
  'Streams per day at each store with streams in the window, most streams first (ties by id); past the ' +
  'limit, one last series without a store id sums the other stores, so on each day the series add up to ' +
  'the daily total.';
const TOP_COUNTRIES =
  'Countries by streams, most first (ties by code), without those at zero; all of them together add up ' +
  'to the total streams.';

const PerformanceSourceEnum = enumFromList('PerformanceSource', PERFORMANCE_SOURCES, {
  description: 'Where the figures of a release performance came from.',
  valueDescriptions: {
    cache: 'Every day of the window was read from the ingested daily tables.',
    live: 'Days after the last ingestion were read from the distributor reports at request time.',
  },
});

interface Freshness {
  ingestedThrough: string | null;
  ingestedAt: Date | null;
}

const FreshnessRef = builder.objectRef<Freshness>('StreamsFreshness').implement({
  description: 'How current the ingested streaming figures are.',
  fields: (t) => ({
    ingestedThrough: t.exposeString('ingestedThrough', {
      nullable: true,
      description: `The last day ingested (${DATE}); null before the first ingestion.`,
    }),
    ingestedAt: t.expose('ingestedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When that day was written.',
    }),
  }),
});

const DailyStreamsRef = builder.objectRef<DailyStreams>('DailyStreams').implement({
  description: 'The streams of one day (every day of the window is listed, zero included).',
  fields: (t) => ({
    eventDate: t.exposeString('eventDate', { description: DATE }),
    streamsCount: t.exposeFloat('streamsCount', { description: STREAMS }),
  }),
});

const TopStoreRef = builder.objectRef<NonNullable<Kpis['topStore']>>('TopStore').implement({
  description: 'The store with the most streams in the window.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The store name.' }),
    share: t.exposeFloat('share', { description: 'Its share of all streams, 0..1 (4 decimals).' }),
  }),
});

const KpisRef = builder.objectRef<Kpis>('PerformanceKpis').implement({
  description: 'Headline figures of a window.',
  fields: (t) => ({
    totalStreams: t.exposeFloat('totalStreams', { description: STREAMS }),
    avgDailyStreams: t.exposeFloat('avgDailyStreams', {
      description: 'totalStreams divided by the days in the window (2 decimals).',
    }),
    periodChangePct: t.exposeFloat('periodChangePct', {
      nullable: true,
      description:
        'Change against the preceding window of equal length, in percent (2 decimals); null when that window ' +
        'has no figures.',
    }),
    topStore: t.field({
      type: TopStoreRef,
      nullable: true,
      description: 'null when the figures are filtered to one store, or there are no streams.',
      resolve: (kpis) => kpis.topStore,
    }),
  }),
});

const StoreStreamsRef = builder.objectRef<StoreTotal>('StoreStreams').implement({
  description: 'The streams at one store in the window (id -1300 is the video-music platform).',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The store id (negative for the synthetic video-music platform).' }),
    name: t.exposeString('name', { description: 'The store name.' }),
    total: t.exposeFloat('total', { description: STREAMS }),
  }),
});

const StoreDailySeriesRef = builder.objectRef<StoreDailySeries>('StoreDailySeries').implement({
  description:
    "One store's streams on each day of the window, for a line chart; or, with storeId null, the other " +
    'stores summed.',
  fields: (t) => ({
    storeId: t.exposeInt('storeId', {
      nullable: true,
      description: 'The store id (-1300: the video-music platform); null for the series of the other stores.',
    }),
    storeName: t.exposeString('storeName', {
      description: `The store name; "${OTHER_STORES_NAME}" for the other stores.`,
    }),
    total: t.exposeFloat('total', { description: `The series' sum. ${STREAMS}` }),
    days: t.field({
      type: [DailyStreamsRef],
      resolve: (series) => series.days,
      description: 'One entry per day of the window, oldest first, zero on days without streams.',
    }),
  }),
});

const CountryStreamsRef = builder.objectRef<CountryTotal>('CountryStreams').implement({
  description: 'The streams in one country in the window.',
  fields: (t) => ({
    country: t.exposeString('country', {
      description: 'ISO 3166-1 alpha-2 code (ZZ: report lines without a territory).',
    }),
    name: t.exposeString('name', { description: 'The country name in English, e.g. United Kingdom for GB.' }),
    total: t.exposeFloat('total', { description: STREAMS }),
  }),
});

const ReleaseCountsRef = builder
  .objectRef<PerformanceSummary['releases']>('PerformanceReleaseCounts')
  .implement({
    description: 'How many of your releases the figures can cover.',
    fields: (t) => ({
      total: t.exposeInt('total', { description: 'Your submitted releases.' }),
      withDistributorId: t.exposeInt('withDistributorId', {
        description: 'Submitted releases the distributor holds (delivered to at least one store).',
      }),
    }),
  });

const TopReleaseRef = builder.objectRef<TopRelease>('TopRelease').implement({
  description: 'A release among the most streamed in the window.',
  fields: (t) => ({
    releaseId: t.exposeID('releaseId', { description: 'The release id.' }),
    title: t.exposeString('title', { nullable: true, description: 'The release title.' }),
    primaryArtistName: t.exposeString('primaryArtistName', {
      nullable: true,
      description: 'The main artist.',
    }),
    coverArtFileUrl: t.exposeString('coverArtFileUrl', {
      nullable: true,
      description: 'The cover art file URL as submitted.',
    }),
    streamsCount: t.exposeFloat('streamsCount', { description: STREAMS }),
  }),
});

const TrackPerformanceRef = builder.objectRef<TrackPerformance>('TrackPerformance').implement({
  description: 'The streams of one track in the window.',
  fields: (t) => ({
    trackId: t.exposeID('trackId', { description: 'The track id.' }),
    trackName: t.exposeString('trackName', { description: 'The track title.' }),
    artistName: t.exposeString('artistName', { nullable: true, description: 'The main artist.' }),
    streamsCount: t.exposeFloat('streamsCount', { description: STREAMS }),
  }),
});

type WithFreshness<T> = T & { freshness: () => Promise<Freshness> };

const freshnessOf = (context: Context) => () => readFreshness(context.em);

const PerformanceSummaryRef = builder
  .objectRef<WithFreshness<PerformanceSummary>>('PerformanceSummary')
  .implement({
    description: 'Your streams over a window: the daily series, KPIs, top stores and top releases.',
    fields: (t) => ({
      fromDate: t.exposeString('fromDate', { description: DATE }),
      toDate: t.exposeString('toDate', { description: DATE }),
      releases: t.field({
        type: ReleaseCountsRef,
        resolve: (s) => s.releases,
        description: 'Release counts.',
      }),
      metrics: t.field({
        type: [DailyStreamsRef],
        resolve: (s) => s.metrics,
        description: 'One entry per day.',
      }),
      kpis: t.field({ type: KpisRef, resolve: (s) => s.kpis, description: 'Headline figures.' }),
      topStores: t.field({
        type: [StoreStreamsRef],
        resolve: (s) => s.topStores,
        description: 'Stores by streams, most first.',
      }),
      topReleases: t.field({
        type: [TopReleaseRef],
        resolve: (s) => s.topReleases,
        description: 'Releases by streams, most first.',
      }),
      storeSeries: t.field({
        type: [StoreDailySeriesRef],
        args: { limit: t.arg.int(limitArg('stores with a series of their own')) },
        resolve: (s, args) => s.storeSeries(args.limit ?? TOP_LIST_SIZE.default),
        description: STORE_SERIES,
      }),
      topCountries: t.field({
        type: [CountryStreamsRef],
        args: { limit: t.arg.int(limitArg('countries')) },
        resolve: (s, args) => s.topCountries(args.limit ?? TOP_LIST_SIZE.default),
        description: TOP_COUNTRIES,
      }),
      freshness: t.field({
        type: FreshnessRef,
        resolve: (s) => s.freshness(),
        description: 'How current the figures are.',
      }),
    }),
  });

const ReleasePerformanceRef = builder
  .objectRef<WithFreshness<ReleasePerformance>>('ReleasePerformance')
  .implement({
    description: 'The streams of one of your releases over a window.',
    fields: (t) => ({
      releaseId: t.exposeID('releaseId', { description: 'The release id.' }),
      fromDate: t.exposeString('fromDate', { description: DATE }),
      toDate: t.exposeString('toDate', { description: DATE }),
      distributorId: t.exposeInt('distributorId', {
        nullable: true,
        description: 'The one store the figures are filtered to; null for all stores.',
      }),
      metrics: t.field({
        type: [DailyStreamsRef],
        resolve: (r) => r.metrics,
        description: 'One entry per day.',
      }),
      kpis: t.field({ type: KpisRef, resolve: (r) => r.kpis, description: 'Headline figures.' }),
      distributors: t.field({
        type: [StoreStreamsRef],
        resolve: (r) => r.distributors,
        description: 'Stores by streams, most first.',
      }),
      tracks: t.field({
        type: [TrackPerformanceRef],
        resolve: (r) => r.tracks,
        description: 'Tracks by streams, most first; empty unless includeTracks is true.',
      }),
      source: t.field({
        type: PerformanceSourceEnum,
        resolve: (r) => r.source,
        description: 'Where the figures came from.',
      }),
      storeSeries: t.field({
        type: [StoreDailySeriesRef],
        args: { limit: t.arg.int(limitArg('stores with a series of their own')) },
        resolve: (r, args) => r.storeSeries(args.limit ?? TOP_LIST_SIZE.default),
        description: `${STORE_SERIES} With distributorId, that store's series alone.`,
      }),
      topCountries: t.field({
        type: [CountryStreamsRef],
        args: { limit: t.arg.int(limitArg('countries')) },
        resolve: (r, args) => r.topCountries(args.limit ?? TOP_LIST_SIZE.default),
        description: `${TOP_COUNTRIES} With distributorId, at that store.`,
      }),
      freshness: t.field({
        type: FreshnessRef,
        resolve: (r) => r.freshness(),
        description: 'How current the ingested figures are.',
      }),
    }),
  });

const WINDOW_ARGS = {
  fromDate: { required: false, description: `First day (${DATE}); default 29 days before toDate.` },
  toDate: { required: false, description: `Last day (${DATE}); default today. At most two years in all.` },
} as const;

builder.queryField('performanceSummary', (t) =>
  t.field({
    type: PerformanceSummaryRef,
    authScopes: MCP,
    description:
      'Your streams over a window (default the trailing 30 days, at most two years): the daily series, ' +
      'KPIs, top stores and top releases. 400 naming the field for a bad window.',
    args: {
      fromDate: t.arg.string(WINDOW_ARGS.fromDate),
      toDate: t.arg.string(WINDOW_ARGS.toDate),
      topReleasesLimit: t.arg.int(limitArg('releases')),
      topStoresLimit: t.arg.int(limitArg('stores')),
    },
    resolve: async (_root, args, context) => {
      const window = resolveWindow(args, new Date());
      const summary = await readPerformanceSummary(context.em, requirePrincipal(context).accountId, window, {
        topReleases: args.topReleasesLimit ?? TOP_LIST_SIZE.default,
        topStores: args.topStoresLimit ?? TOP_LIST_SIZE.default,
      });
      return { ...summary, freshness: freshnessOf(context) };
    },
  }),
);

builder.queryField('releasePerformance', (t) =>
  t.field({
    type: ReleasePerformanceRef,
    authScopes: MCP,
    description:
      'One of your releases over a window (default the trailing 30 days, at most two years), at every store ' +
      'or one (distributorId; -1300 is the video-music platform), per track with includeTracks. Another ' +
      "account's release is 403; a bad window 400 naming the field.",
    args: {
      releaseId: t.arg.id({ required: true, description: 'The release id.' }),
      fromDate: t.arg.string(WINDOW_ARGS.fromDate),
      toDate: t.arg.string(WINDOW_ARGS.toDate),
      distributorId: t.arg.int({ required: false, description: 'One store id; omitted, every store.' }),
      includeTracks: t.arg.boolean({
        required: false,
        defaultValue: false,
        description: 'List the tracks with their streams.',
      }),
    },
    resolve: async (_root, args, context) => {
      const now = new Date();
      const performance = await readReleasePerformance(
        context.em,
        requirePrincipal(context).accountId,
        {
          releaseId: args.releaseId,
          window: resolveWindow(args, now),
          distributorId: args.distributorId ?? null,
          includeTracks: args.includeTracks ?? false,
        },
        { now },
      );
      return { ...performance, freshness: freshnessOf(context) };
    },
  }),
);
