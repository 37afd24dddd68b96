import type { Day } from './days.ts';
import { type StreamSource, sandboxTrackStreams, type TrackStreams } from './sandbox-streams.ts';

export type { StreamSource, TrackStreams };

/**
 * The port of daily streaming reports: the streams of each track of a live release at one store on one
 * day. The sandbox computes them (deterministic figures); a real distributor's adapter reads the same
 * rows from its sales reports.
 */
export interface StreamReports {
  trackStreams(source: StreamSource, day: Day): TrackStreams[];
}

export const sandboxStreamReports: StreamReports = { trackStreams: sandboxTrackStreams };
