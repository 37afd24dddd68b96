import { type ReleaseJobView, readReleaseJob, storeStatuses } from '../../src/domains/delivery/index.ts';
import { findOwnedRelease } from '../../src/domains/releases/index.ts';
import { notFound } from '../../src/platform/errors.ts';
import { builder, MCP } from '../builder.ts';
import { type Context, requirePrincipal } from '../context.ts';
import { AggregateStatusEnum } from '../releases/enums.ts';
import { JobStateEnum, JobStepStatusEnum } from './enums.ts';

type Status = Awaited<ReturnType<typeof storeStatuses>>;
type StoreStatus = Status['stores'][number];

const StoreStatusRef = builder.objectRef<StoreStatus>('StoreDeliveryStatus').implement({
  description: 'Where a release stands in one store.',
  fields: (t) => ({
    storeId: t.exposeInt('storeId'),
    storeName: t.exposeString('storeName'),
    statusText: t.exposeString('statusText', {
      description: '`Queued`, `In inspection`, `Delivered to DSP`, `Live`, `Takedown delivered`, …',
    }),
    urlInStore: t.exposeString('urlInStore', { nullable: true, description: 'Present when live.' }),
  }),
});

const ReleaseStatusRef = builder
  .objectRef<Status & { releaseId: string }>('ReleaseDeliveryStatus')
  .implement({
    description: 'Where a release stands in each store, and overall.',
    fields: (t) => ({
      releaseId: t.exposeID('releaseId'),
      aggregateStatus: t.expose('aggregateStatus', { type: AggregateStatusEnum }),
      pending: t.exposeBoolean('pending', {
        description: 'True while the distributor does not have the release yet.',
      }),
      stores: t.field({ type: [StoreStatusRef], resolve: (s) => s.stores }),
      fallback: t.boolean({
        description: 'The distributor could not be reached: these are the last known statuses.',
        resolve: (s) => s.fallback === true,
      }),
      fallbackReason: t.string({ nullable: true, resolve: (s) => s.fallbackReason ?? null }),
    }),
  });

const JobStepRef = builder.objectRef<ReleaseJobView['steps'][number]>('ReleaseJobStep').implement({
  description: 'A step of a release job.',
  fields: (t) => ({
    name: t.exposeString('name'),
    status: t.expose('status', { type: JobStepStatusEnum }),
    at: t.string({ resolve: (s) => String(s.at) }),
    detail: t.string({
      nullable: true,
      resolve: (s) => (s.detail === undefined || s.detail === null ? null : String(s.detail)),
    }),
    storeId: t.int({ nullable: true, resolve: (s) => s.storeId ?? null }),
  }),
});

const JobErrorRef = builder.objectRef<ReleaseJobView['errors'][number]>('ReleaseJobError').implement({
  description: 'An error recorded by a release job.',
  fields: (t) => ({
    at: t.string({ resolve: (e) => String(e.at) }),
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    storeId: t.int({ nullable: true, resolve: (e) => e.storeId ?? null }),
  }),
});

const ReleaseJobRef = builder.objectRef<ReleaseJobView>('ReleaseJob').implement({
  description: 'The background processing job of a submitted release: state, steps and errors.',
  fields: (t) => ({
    jobId: t.exposeID('jobId'),
    releaseId: t.exposeID('releaseId'),
    state: t.expose('state', { type: JobStateEnum }),
    steps: t.field({ type: [JobStepRef], resolve: (j) => j.steps }),
    errors: t.field({ type: [JobErrorRef], resolve: (j) => j.errors }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

/** One of the caller's releases by id (malformed, unknown and not-owned ids answer distinctly). */
const callersRelease = (context: Context, releaseId: string) =>
  findOwnedRelease(context.em, requirePrincipal(context).accountId, releaseId, { field: 'releaseId' });

builder.queryField('releaseStatus', (t) =>
  t.field({
    type: ReleaseStatusRef,
    authScopes: MCP,
    description: 'Per-store delivery status and the aggregate status of one of your releases.',
    args: { releaseId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const recorded = await context.app.releaseStatuses.readOwned(
        () => context.em,
        requirePrincipal(context).accountId,
        args.releaseId,
        'releaseId',
      );
      return {
        releaseId: recorded.releaseId,
        ...(await storeStatuses(recorded, context.app.distributor)),
      };
    },
  }),
);

builder.queryField('releaseJob', (t) =>
  t.field({
    type: ReleaseJobRef,
    authScopes: MCP,
    description: 'The processing job of one of your releases (a release gets one when it is submitted).',
    args: { releaseId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const release = await callersRelease(context, args.releaseId);
      const job = await readReleaseJob(context.em, release);
      if (!job)
        throw notFound('This release has no processing job yet: it has not been submitted.', 'job_not_found');
      return job;
    },
  }),
);
