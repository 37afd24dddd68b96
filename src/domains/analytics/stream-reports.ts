import type { Day } from './days.ts';
import { type CountryStreams, sandboxCountryStreams } from './sandbox-countries.ts';
import { type StreamSource, sandboxTrackStreams, type TrackStreams } from './sandbox-streams.ts';

export type { CountryStreams, StreamSource, TrackStreams };

/**
 * The port of daily streaming reports, for a live release at one store on one day: the streams of
 * each track, and the same streams by country (ISO 3166-1 alpha-2; lines without a territory as `ZZ`),
 * in whole numbers that sum exactly to the tracks' total. The sandbox computes them (deterministic
 * figures); a real distributor's adapter reads the same rows from its sales reports, whose lines carry
 * the territory.
 */
export interface StreamReports {
  trackStreams(source: StreamSource, day: Day): TrackStreams[];
  countryStreams(source: StreamSource, day: Day): CountryStreams[];
}

export const sandboxStreamReports: StreamReports = {
  trackStreams: sandboxTrackStreams,
  countryStreams: sandboxCountryStreams,
};
