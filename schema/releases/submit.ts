import { consumeAgentSubmitAllowance } from '../../src/domains/releases/agent-submit-allowance.ts';
import { type SubmitResult, submitRelease } from '../../src/domains/releases/submit-release.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { AggregateStatusEnum, ReleaseStatusEnum } from './enums.ts';
import { payloadValidation } from './payload-validation.ts';
import { TrackChargeRef } from './quote.ts';
import { ReleaseRef } from './release.ts';
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

builder.mutationField('submitRelease', (t) =>
  t.field({
    type: SubmitResultRef,
    authScopes: MCP,
    description:
      'Validate, price and submit a release, paying in credits, in one transaction. Re-submitting a submitted ' +
      'release, or retrying with the same idempotencyKey, charges nothing.',
    args: {
      release: t.arg({ type: 'JSON', required: true, validate: payloadValidation('release') }),
      tracks: t.arg({ type: 'JSON', required: true, validate: payloadValidation('tracks') }),
      releaseId: t.arg.id({ required: false }),
      conversationId: t.arg.string({ required: false }),
      tokenOffset: t.arg.boolean({ required: false, defaultValue: false }),
      distributors: t.arg({ type: 'JSON', required: false }),
      skipAdapters: t.arg.boolean({ required: false }),
      idempotencyKey: t.arg.string({ required: false, validate: { minLength: 1, maxLength: 255 } }),
      provenance: t.arg.string({ required: false, validate: { maxLength: 100 } }),
    },
    resolve: async (_root, args, context) => {
      const { accountId } = requirePrincipal(context);
      // The agent HTTP endpoint has an allowance of its own; the channel comes from the facade.
      if (context.channel === 'agent_http')
        await consumeAgentSubmitAllowance(context.em, context.app.rateLimits, accountId);
      return submitRelease(
        context.em,
        requirePrincipal(context).accountId,
        {
          release: args.release,
          tracks: args.tracks,
          releaseId: args.releaseId ?? null,
          conversationId: args.conversationId ?? null,
          tokenOffset: args.tokenOffset ?? false,
          distributors: args.distributors,
          skipAdapters: args.skipAdapters ?? null,
        },
        {
          idempotencyKey: args.idempotencyKey ?? null,
          provenance: args.provenance ?? null,
          handOver: (em, release, at) => context.app.distributor.deliver(em, release, at),
        },
      );
    },
  }),
);
