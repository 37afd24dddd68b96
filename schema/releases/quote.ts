import type { TrackCharge } from '../../src/domains/releases/billing.ts';
import { type Quote, quoteRelease } from '../../src/domains/releases/quote-release.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { BundleRef } from '../credits/pricing.ts';
import { payloadValidation } from './payload-validation.ts';
import { RuleIssueRef } from './rule-issue.ts';

export const TrackChargeRef = builder.objectRef<TrackCharge>('TrackCharge').implement({
  description: 'What one track costs in a quote or submission.',
  fields: (t) => ({
    trackNumber: t.exposeInt('trackNumber'),
    title: t.exposeString('title', { nullable: true }),
    billable: t.exposeBoolean('billable'),
    ai: t.exposeBoolean('ai'),
    credits: t.exposeInt('credits'),
    reason: t.exposeString('reason', { description: '`ai_track`, `human_track` or `missing_audio`.' }),
  }),
});

const CostRef = builder.objectRef<Quote['cost']>('QuoteCost').implement({
  description: 'What the release costs, in credits and dollars.',
  fields: (t) => ({
    trackCredits: t.exposeInt('trackCredits'),
    tokenOffsetCredits: t.exposeInt('tokenOffsetCredits'),
    totalCredits: t.exposeInt('totalCredits'),
    totalUsd: t.exposeFloat('totalUsd'),
  }),
});

const SummaryRef = builder.objectRef<Quote['summary']>('QuoteSummary').implement({
  description: 'How the tracks were counted.',
  fields: (t) => ({
    trackCount: t.exposeInt('trackCount'),
    billableTracks: t.exposeInt('billableTracks'),
    humanTracks: t.exposeInt('humanTracks'),
    aiTracks: t.exposeInt('aiTracks'),
    tracksMissingAudio: t.exposeInt('tracksMissingAudio'),
  }),
});

const BalanceRef = builder.objectRef<Quote['balance']>('QuoteBalance').implement({
  description: 'The balance against the cost.',
  fields: (t) => ({
    available: t.exposeInt('available'),
    required: t.exposeInt('required'),
    covered: t.exposeBoolean('covered'),
    shortfallCredits: t.exposeInt('shortfallCredits'),
    shortfallUsd: t.exposeFloat('shortfallUsd'),
  }),
});

const RatesRef = builder.objectRef<Quote['rates']>('QuoteRates').implement({
  description: 'The rates the quote applied.',
  fields: (t) => ({
    creditsPerHumanTrack: t.exposeInt('creditsPerHumanTrack'),
    creditsPerAiTrack: t.exposeInt('creditsPerAiTrack'),
    aiSurchargeCredits: t.exposeInt('aiSurchargeCredits'),
    tokenOffsetCredits: t.exposeInt('tokenOffsetCredits'),
  }),
});

const QuoteRef = builder.objectRef<Quote>('Quote').implement({
  description: 'What a release would cost against the balance. Creates and charges nothing.',
  fields: (t) => ({
    currency: t.exposeString('currency'),
    cost: t.field({ type: CostRef, resolve: (q) => q.cost }),
    tracks: t.field({ type: [TrackChargeRef], resolve: (q) => q.tracks }),
    summary: t.field({ type: SummaryRef, resolve: (q) => q.summary }),
    balance: t.field({ type: BalanceRef, resolve: (q) => q.balance }),
    purchase: t.field({
      type: BundleRef,
      nullable: true,
      description: 'The cheapest bundle covering the shortfall.',
      resolve: (q) => q.purchase,
    }),
    submittable: t.exposeBoolean('submittable'),
    blockers: t.field({
      type: [RuleIssueRef],
      description: 'Problems credits cannot fix.',
      resolve: (q) => q.blockers,
    }),
    warnings: t.field({ type: [RuleIssueRef], resolve: (q) => q.warnings }),
    rates: t.field({ type: RatesRef, resolve: (q) => q.rates }),
  }),
});

builder.queryField('quoteRelease', (t) =>
  t.field({
    type: QuoteRef,
    description:
      'What a release would cost against your balance, and what blocks it. Creates and charges nothing.',
    authScopes: MCP,
    args: {
      tracks: t.arg({ type: 'JSON', required: true, validate: payloadValidation('tracks') }),
      release: t.arg({ type: 'JSON', required: false, validate: payloadValidation('release') }),
      tokenOffset: t.arg.boolean({ required: false, defaultValue: false }),
    },
    resolve: (_root, args, context) =>
      quoteRelease(context.em, requirePrincipal(context).accountId, {
        tracks: args.tracks,
        release: args.release ?? undefined,
        tokenOffset: args.tokenOffset ?? false,
      }),
  }),
);
