import {
  CREDIT_PRICE_CENTS,
  CREDITS_PER_AI_TRACK,
  CREDITS_PER_HUMAN_TRACK,
  cheapestBundleCovering,
  describeBundle,
  TOKEN_OFFSET_CREDITS,
} from '../credits/index.ts';
import { isAiDeclared } from './rules/engine/index.ts';
import type { RuleContext, TrackInput } from './rules/engine/types.ts';

export const CHARGE_REASONS = ['ai_track', 'human_track', 'missing_audio'] as const;

export interface TrackCharge {
  trackNumber: number;
  title: string | null;
  billable: boolean;
  ai: boolean;
  credits: number;
  reason: (typeof CHARGE_REASONS)[number];
}

export interface Charges {
  tracks: TrackCharge[];
  trackCredits: number;
  tokenOffsetCredits: number;
  totalCredits: number;
}

const usd = (credits: number) => (credits * CREDIT_PRICE_CENTS) / 100;

/**
 * What a release costs: 1 credit per human song, 2 per AI song (declared by any of the AI fields, or
 * said by a cached detection of its audio), nothing for a track without audio; +1 for the token offset.
 */
export async function chargesFor(
  tracks: TrackInput[],
  tokenOffset: boolean,
  ctx: Pick<RuleContext, 'aiDetection'>,
): Promise<Charges> {
  const lines = await Promise.all(
    tracks.map(async (track, index): Promise<TrackCharge> => {
      const audio =
        typeof track.audio_file_url === 'string' && track.audio_file_url.length > 0
          ? track.audio_file_url
          : null;
      const detected = audio ? await ctx.aiDetection(audio) : null;
      const ai = isAiDeclared(track) || detected?.containsAi === true;
      const title = typeof track.title === 'string' ? track.title : null;
      if (!audio)
        return { trackNumber: index + 1, title, billable: false, ai, credits: 0, reason: 'missing_audio' };
      const credits = ai ? CREDITS_PER_AI_TRACK : CREDITS_PER_HUMAN_TRACK;
      return {
        trackNumber: index + 1,
        title,
        billable: true,
        ai,
        credits,
        reason: ai ? 'ai_track' : 'human_track',
      };
    }),
  );
  const trackCredits = lines.reduce((sum, line) => sum + line.credits, 0);
  const tokenOffsetCredits = tokenOffset ? TOKEN_OFFSET_CREDITS : 0;
  return { tracks: lines, trackCredits, tokenOffsetCredits, totalCredits: trackCredits + tokenOffsetCredits };
}

export function costOf(charges: Charges) {
  return {
    trackCredits: charges.trackCredits,
    tokenOffsetCredits: charges.tokenOffsetCredits,
    totalCredits: charges.totalCredits,
    totalUsd: usd(charges.totalCredits),
  };
}

export function balanceFor(available: number, required: number) {
  const shortfallCredits = Math.max(0, required - available);
  return {
    available,
    required,
    covered: shortfallCredits === 0,
    shortfallCredits,
    shortfallUsd: usd(shortfallCredits),
  };
}

/** The cheapest bundle that covers a shortfall, or null (nothing short, or no bundle large enough). */
export function purchaseFor(shortfallCredits: number) {
  if (shortfallCredits <= 0) return null;
  const bundle = cheapestBundleCovering(shortfallCredits);
  return bundle ? describeBundle(bundle) : null;
}

export const RATES = {
  creditsPerHumanTrack: CREDITS_PER_HUMAN_TRACK,
  creditsPerAiTrack: CREDITS_PER_AI_TRACK,
  aiSurchargeCredits: CREDITS_PER_AI_TRACK - CREDITS_PER_HUMAN_TRACK,
  tokenOffsetCredits: TOKEN_OFFSET_CREDITS,
};
