import { attributedProvenance } from '../../src/domains/partners/index.ts';
import {
  consumeAgentSubmitAllowance,
  PAYLOAD_LIMITS,
  type SubmitInput,
  type SubmitResult,
  submitRelease,
} from '../../src/domains/releases/index.ts';
import { audioServices } from '../audio/deps.ts';
import { builder, FACADE_ONLY, MCP } from '../builder.ts';
import { type Context, requirePrincipal } from '../context.ts';
import { toWire } from '../wire-shape.ts';
import { AggregateStatusEnum, ReleaseStatusEnum } from './enums.ts';
import { wireBody } from './payload-validation.ts';
import { TrackChargeRef } from './quote.ts';
import { ReleaseRef } from './release.ts';
import { ReleaseShape, TrackShape } from './release-shape.ts';
import { RuleIssueRef } from './rule-issue.ts';

const SubmitResultRef = builder.objectRef<SubmitResult>('SubmitResult').implement({
  description: 'What a submission charged and where the release stands now.',
  fields: (t) => ({
    releaseId: t.id({ resolve: (r) => r.release.id }),
    status: t.field({ type: ReleaseStatusEnum, resolve: (r) => r.release.status }),
    aggregateStatus: t.field({
      type: AggregateStatusEnum,
      nullable: true,
      resolve: (r) => r.release.aggregateStatus,
    }),
    pending: t.boolean({
      description: 'True while the release waits for the distributor.',
      resolve: (r) => r.release.aggregateStatus === 'queued',
    }),
    alreadySubmitted: t.exposeBoolean('alreadySubmitted', {
      description: 'A retry of a submitted release: nothing was charged.',
    }),
    creditsCharged: t.exposeInt('creditsCharged'),
    balanceAfter: t.exposeInt('balanceAfter'),
    submittedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.release.submittedAt }),
    provenance: t.string({ nullable: true, resolve: (r) => r.release.provenance }),
    tokenOffset: t.boolean({ resolve: (r) => r.release.tokenOffset }),
    charges: t.field({ type: [TrackChargeRef], resolve: (r) => r.charges?.tracks ?? [] }),
    warnings: t.field({
      type: [RuleIssueRef],
      resolve: (r) => r.warnings.filter((w) => w.severity === 'warning'),
    }),
    release: t.field({ type: ReleaseRef, resolve: (r) => r.release }),
  }),
});

const SubmitReleaseInputRef = builder.inputType('SubmitReleaseInput', {
  description: 'A release to validate, price and submit.',
  fields: (t) => ({
    release: t.field({ type: ReleaseShape.input, required: true }),
    tracks: t.field({
      type: [TrackShape.input],
      required: true,
      description: `In order; at most ${PAYLOAD_LIMITS.tracks}.`,
      validate: { maxLength: PAYLOAD_LIMITS.tracks },
    }),
    releaseId: t.id({ required: false, description: 'The draft this submission completes.' }),
    conversationId: t.string({
      required: false,
      description: 'The conversation whose draft this submission completes.',
      validate: { minLength: 1, maxLength: 200 },
    }),
    tokenOffset: t.boolean({
      required: false,
      defaultValue: false,
      description: 'Adds the flat token-offset add-on (one more credit).',
    }),
    idempotencyKey: t.string({
      required: false,
      description: 'Makes a retry safe: the same key and body answer the same release, kept 24 h.',
      validate: { minLength: 1, maxLength: 255 },
    }),
    provenance: t.string({
      required: false,
      description: 'A partner tag attributing the release; default MCP.',
      validate: { maxLength: 100 },
    }),
  }),
});

async function submit(
  context: Context,
  input: SubmitInput,
  options: { idempotencyKey?: string | null; provenance?: string | null },
) {
  const principal = requirePrincipal(context);
  const { accountId } = principal;
  // The agent HTTP endpoint has an allowance of its own; the channel comes from the facade.
  if (context.channel === 'agent_http')
    await consumeAgentSubmitAllowance(context.em, context.app.rateLimits, accountId);
  return submitRelease(context.em, accountId, input, {
    idempotencyKey: options.idempotencyKey ?? null,
    provenance: await attributedProvenance(context.em, {
      token: principal.provenance,
      sent: options.provenance,
      sentAs: context.channel === 'agent_tool' ? 'argument' : 'header',
      origin: context.client.origin,
      referer: context.client.referer,
    }),
    handOver: (em, release, at) => context.app.distributor.deliver(em, release, at),
    audio: audioServices(context),
  });
}

const SUBMIT_DESCRIPTION =
  'Validate, price and submit a release, paying in credits, in one transaction. Re-submitting a submitted ' +
  'release, or retrying with the same idempotencyKey, charges nothing. Rule problems answer ' +
  "`validation_failed` with every field path (in the spec's wire names, e.g. `tracks[0].writers[0].name`).";

builder.mutationField('submitRelease', (t) =>
  t.field({
    type: SubmitResultRef,
    authScopes: MCP,
    description: SUBMIT_DESCRIPTION,
    args: { input: t.arg({ type: SubmitReleaseInputRef, required: true }) },
    resolve: (_root, { input }, context) =>
      submit(
        context,
        {
          release: toWire(ReleaseShape, input.release),
          tracks: input.tracks.map((track) => toWire(TrackShape, track)),
          releaseId: input.releaseId ?? null,
          conversationId: input.conversationId ?? null,
          tokenOffset: input.tokenOffset ?? false,
        },
        input,
      ),
  }),
);

builder.mutationField('submitReleaseWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: SubmitResultRef,
    authScopes: MCP,
    description: SUBMIT_DESCRIPTION,
    args: {
      release: t.arg({ type: 'JSON', required: true, ...wireBody('release', ReleaseShape) }),
      tracks: t.arg({ type: 'JSON', required: true, ...wireBody('tracks', TrackShape) }),
      releaseId: t.arg.id({ required: false }),
      conversationId: t.arg.string({ required: false }),
      tokenOffset: t.arg.boolean({ required: false, defaultValue: false }),
      distributors: t.arg({
        type: 'JSON',
        required: false,
        description: 'Accepted and ignored: a free-form object.',
        extensions: { jsonSchema: { type: 'object', additionalProperties: true } },
      }),
      skipAdapters: t.arg.boolean({ required: false, description: 'Accepted and ignored.' }),
      idempotencyKey: t.arg.string({ required: false, validate: { minLength: 1, maxLength: 255 } }),
      provenance: t.arg.string({ required: false, validate: { maxLength: 100 } }),
    },
    resolve: (_root, args, context) =>
      submit(
        context,
        {
          release: args.release,
          tracks: args.tracks,
          releaseId: args.releaseId ?? null,
          conversationId: args.conversationId ?? null,
          tokenOffset: args.tokenOffset ?? false,
          distributors: args.distributors,
          skipAdapters: args.skipAdapters ?? null,
        },
        args,
      ),
  }),
);
