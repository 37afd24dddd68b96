import {
  CHARGE_REASONS,
  PAYLOAD_LIMITS,
  type Quote,
  type QuoteInput,
  quoteRelease,
  type TrackCharge,
} from '../../src/domains/releases/index.ts';
import { audioServices } from '../audio/deps.ts';
import { builder, FACADE_ONLY, MCP } from '../builder.ts';
import { type Context, requirePrincipal } from '../context.ts';
import { BundleRef } from '../credits/pricing.ts';
import { enumFromList } from '../enums.ts';
import { toWire } from '../wire-shape.ts';
import { wireBody } from './payload-validation.ts';
import { ReleaseShape, TrackShape } from './release-shape.ts';
import { RuleIssueRef } from './rule-issue.ts';

const ChargeReasonEnum = enumFromList('ChargeReason', CHARGE_REASONS, {
  description: 'Why a track costs what it costs.',
  valueDescriptions: {
    ai_track: 'AI-generated (declared or detected): the AI rate.',
    human_track: 'The human rate.',
    missing_audio: 'No audio yet: not billed until it has some.',
  },
});

export const TrackChargeRef = builder.objectRef<TrackCharge>('TrackCharge').implement({
  description: 'What one track costs in a quote or submission.',
  fields: (t) => ({
    trackNumber: t.exposeInt('trackNumber'),
    title: t.exposeString('title', { nullable: true }),
    billable: t.exposeBoolean('billable'),
    ai: t.exposeBoolean('ai'),
    credits: t.exposeInt('credits'),
    reason: t.expose('reason', { type: ChargeReasonEnum }),
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

const QuoteInputRef = builder.inputType('QuoteInput', {
  description:
    'A release to price. Only the tracks are needed; a release adds its own rules to the blockers.',
  fields: (t) => ({
    tracks: t.field({
      type: [TrackShape.input],
      required: true,
      validate: { maxLength: PAYLOAD_LIMITS.tracks },
    }),
    release: t.field({ type: ReleaseShape.input, required: false }),
    tokenOffset: t.boolean({ required: false, defaultValue: false }),
  }),
});

const QUOTE_DESCRIPTION =
  'What a release would cost against your balance, and what blocks it. Creates and charges nothing.';

const quote = (context: Context, input: QuoteInput) =>
  quoteRelease(context.em, requirePrincipal(context).accountId, input, audioServices(context));

builder.queryField('quoteRelease', (t) =>
  t.field({
    type: QuoteRef,
    description: QUOTE_DESCRIPTION,
    authScopes: MCP,
    args: { input: t.arg({ type: QuoteInputRef, required: true }) },
    resolve: (_root, { input }, context) =>
      quote(context, {
        tracks: input.tracks.map((track) => toWire(TrackShape, track)),
        release: input.release ? toWire(ReleaseShape, input.release) : undefined,
        tokenOffset: input.tokenOffset ?? false,
      }),
  }),
);

builder.queryField('quoteReleaseWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: QuoteRef,
    description: QUOTE_DESCRIPTION,
    authScopes: MCP,
    args: {
      tracks: t.arg({ type: 'JSON', required: true, ...wireBody('tracks', TrackShape) }),
      release: t.arg({ type: 'JSON', required: false, ...wireBody('release', ReleaseShape) }),
      tokenOffset: t.arg.boolean({ required: false, defaultValue: false }),
    },
    resolve: (_root, args, context) =>
      quote(context, {
        tracks: args.tracks,
        release: args.release ?? undefined,
        tokenOffset: args.tokenOffset ?? false,
      }),
  }),
);
