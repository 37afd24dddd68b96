import { TOP_LIST_SIZE } from '../src/domains/analytics/index.ts';
import { COVER_ART_PROMPT, COVER_ART_RATE } from '../src/domains/cover-art/index.ts';
import {
  CREDIT_PRICE_CENTS,
  CREDITS_PER_AI_TRACK,
  CREDITS_PER_HUMAN_TRACK,
  CUSTOM_CHECKOUT_CREDITS,
  DEFAULT_TRANSACTION_LIMIT,
  MAX_TRANSACTION_LIMIT,
  TOKEN_OFFSET_CREDITS,
} from '../src/domains/credits/index.ts';
import { SANDBOX_EVENT_RATE } from '../src/domains/delivery/adapters/index.ts';
import { RELEASE_EVENT_TYPES } from '../src/domains/delivery/index.ts';
import { AUTO_RELOAD_DAILY_CAP, MAX_THRESHOLD_CREDITS } from '../src/domains/payments/index.ts';
import {
  AGENT_SUBMIT_LIMIT,
  DEFAULT_LIST_LIMIT,
  MAX_LIST_LIMIT,
  SEARCH_MAX_LENGTH,
  SEARCH_MIN_LENGTH,
} from '../src/domains/releases/index.ts';
import {
  DEFAULT_ROTATION_GRACE_SECONDS,
  DEFAULT_WEBHOOK_LOG_LIMIT,
  MAX_ENDPOINTS_PER_ACCOUNT,
  MAX_ROTATION_GRACE_SECONDS,
  MAX_WEBHOOK_LOG_LIMIT,
} from '../src/domains/webhooks/index.ts';

/**
 * The prices and limits the facades quote in their summaries, tool descriptions and argument schemas,
 * read from the domains that own them: a facade writes no figure of its own, so its text cannot drift
 * from the rule (test/architecture/facade-figures.test.ts keeps figures out of facades/).
 */
export const FACTS = {
  creditPriceUsd: CREDIT_PRICE_CENTS / 100,
  creditsPerHumanTrack: CREDITS_PER_HUMAN_TRACK,
  creditsPerAiTrack: CREDITS_PER_AI_TRACK,
  tokenOffsetCredits: TOKEN_OFFSET_CREDITS,
  customCheckoutCredits: CUSTOM_CHECKOUT_CREDITS,
  maxThresholdCredits: MAX_THRESHOLD_CREDITS,
  autoReloadsPerDay: AUTO_RELOAD_DAILY_CAP,
  transactionsPage: { min: 0, max: MAX_TRANSACTION_LIMIT, default: DEFAULT_TRANSACTION_LIMIT },
  releasesPage: { min: 1, max: MAX_LIST_LIMIT, default: DEFAULT_LIST_LIMIT },
  releaseSearch: { min: SEARCH_MIN_LENGTH, max: SEARCH_MAX_LENGTH },
  webhookLogPage: { min: 1, max: MAX_WEBHOOK_LOG_LIMIT, default: DEFAULT_WEBHOOK_LOG_LIMIT },
  topListSize: TOP_LIST_SIZE,
  maxWebhookEndpoints: MAX_ENDPOINTS_PER_ACCOUNT,
  webhookGraceSeconds: { min: 0, max: MAX_ROTATION_GRACE_SECONDS, default: DEFAULT_ROTATION_GRACE_SECONDS },
  coverArtPrompt: COVER_ART_PROMPT,
  coverArtRate: COVER_ART_RATE,
  agentSubmitRate: AGENT_SUBMIT_LIMIT,
  sandboxEventRate: SANDBOX_EVENT_RATE,
  releaseEventTypes: RELEASE_EVENT_TYPES,
} as const;

interface Rate {
  readonly standard: number;
  readonly insider: number;
  readonly windowSeconds: number;
}

/**
 * `5 per 2 minutes, 15 for insiders`; with `{ unit: 'calls', insiders: 'in parentheses' }`,
 * `5 calls per 2 minutes (15 for insiders)`.
 */
export function rateText(
  rate: Rate,
  style: { unit?: string; insiders?: 'after a comma' | 'in parentheses' } = {},
): string {
  const minutes = rate.windowSeconds / 60;
  const window = !Number.isInteger(minutes)
    ? `${rate.windowSeconds} seconds`
    : minutes === 1
      ? 'minute'
      : `${minutes} minutes`;
  const standard = style.unit ? `${rate.standard} ${style.unit}` : `${rate.standard}`;
  const insiders = `${rate.insider} for insiders`;
  return style.insiders === 'in parentheses'
    ? `${standard} per ${window} (${insiders})`
    : `${standard} per ${window}, ${insiders}`;
}

/** `10 per minute per account`: the sandbox's test events. */
export function sandboxRateText(
  rate: { readonly points: number; readonly windowSeconds: number } = FACTS.sandboxEventRate,
): string {
  const window = rate.windowSeconds === 60 ? 'minute' : `${rate.windowSeconds} seconds`;
  return `${rate.points} per ${window} per account`;
}

interface PageSize {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

/** `1..500, default 100`; with `'in parentheses'`, `1..500 (default 100)`. */
export const pageText = (size: PageSize, style: 'after a comma' | 'in parentheses' = 'after a comma') =>
  style === 'in parentheses'
    ? `${rangeText(size)} (default ${size.default})`
    : `${rangeText(size)}, default ${size.default}`;

/** `1..1000`: an inclusive range as the descriptions write it. */
export const rangeText = (range: { readonly min: number; readonly max: number }) =>
  `${range.min}..${range.max}`;
