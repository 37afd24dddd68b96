import {
  DRAFT_MODES,
  type DraftInput,
  type DraftResult,
  PAYLOAD_LIMITS,
  saveDraft,
} from '../../src/domains/releases/index.ts';
import { builder, FACADE_ONLY, MCP } from '../builder.ts';
import { type Context, requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';
import { toWire } from '../wire-shape.ts';
import { payloadValidation, wireBody } from './payload-validation.ts';
import { ReleaseShape, TrackShape } from './release-shape.ts';
import { RuleIssueRef } from './rule-issue.ts';

const DraftModeEnum = enumFromList('DraftMode', DRAFT_MODES, {
  description: 'How a save applies to an existing draft.',
  valueDescriptions: { delta: 'Patches the draft (deep merge).', replace: 'Overwrites the draft.' },
});

const SnapshotRef = builder.objectRef<DraftResult['snapshot']>('DraftSnapshot').implement({
  description: 'The revision a save created.',
  fields: (t) => ({
    revision: t.exposeInt('revision'),
    snapshotId: t.exposeID('snapshotId'),
    status: t.exposeString('status'),
  }),
});

const UPLOAD_REQUESTS =
  'Notes of the uploads the draft waits for, free-form objects kept as sent (JSON: the spec leaves their shape open).';

/** What the REST reference says of `upload_requests`: an array of objects, each free-form. */
const UPLOAD_REQUESTS_SCHEMA = { type: 'array', items: { type: 'object', additionalProperties: true } };

const LatestRef = builder.objectRef<DraftResult['latest']>('DraftLatest').implement({
  description: 'The draft as saved now.',
  fields: (t) => ({
    payload: t.field({
      type: ReleaseShape.output,
      description: 'The release object as saved.',
      resolve: (l) => l.payload,
    }),
    tracks: t.field({ type: [TrackShape.output], resolve: (l) => l.tracks }),
    uploadRequests: t.field({
      type: ['JSON'],
      description: UPLOAD_REQUESTS,
      resolve: (l) => l.uploadRequests,
    }),
    payloadWire: t.field({
      ...FACADE_ONLY,
      type: 'JSON',
      description: 'The release object as stored, for the REST and agent bodies.',
      resolve: (l) => l.payload,
    }),
    tracksWire: t.field({
      ...FACADE_ONLY,
      type: 'JSON',
      description: 'The tracks as stored, for the REST and agent bodies.',
      resolve: (l) => l.tracks,
    }),
  }),
});

const DraftResultRef = builder.objectRef<DraftResult>('DraftResult').implement({
  description: 'What a draft save stored and what submission would say of it.',
  fields: (t) => ({
    releaseId: t.exposeID('releaseId'),
    releaseCreated: t.exposeBoolean('releaseCreated'),
    snapshot: t.field({ type: SnapshotRef, resolve: (r) => r.snapshot }),
    latest: t.field({ type: LatestRef, resolve: (r) => r.latest }),
    submittable: t.exposeBoolean('submittable'),
    submissionWarnings: t.field({
      type: [RuleIssueRef],
      description: 'What submission would say of the draft now (errors and warnings), per field.',
      resolve: (r) => r.submissionWarnings,
    }),
  }),
});

const TrackPatchInputRef = builder.inputType('TrackPatchInput', {
  description: 'A change to one track of a draft, addressed by index or track number.',
  fields: (t) => ({
    index: t.int({ required: false, description: '0-based; the track count appends a track.' }),
    trackNumber: t.int({
      required: false,
      description: '1-based, in place of index.',
      extensions: { wireName: 'track_number', wireDescription: '1-based, in place of index.' },
    }),
    remove: t.boolean({ required: false, description: 'Deletes the track.' }),
    patch: t.field({ type: TrackShape.input, required: false, description: 'Fields merged into the track.' }),
  }),
});

const DraftInputRef = builder.inputType('DraftInput', {
  description:
    'A draft save. Without releaseId or conversationId it starts a new draft. Drafts never fail on ' +
    'submission rules; the result reports them.',
  fields: (t) => ({
    release: t.field({ type: ReleaseShape.input, required: false }),
    tracks: t.field({
      type: [TrackShape.input],
      required: false,
      description: 'Replaces the tracks.',
      validate: { maxLength: PAYLOAD_LIMITS.tracks },
    }),
    trackPatches: t.field({ type: [TrackPatchInputRef], required: false }),
    uploadRequests: t.field({ type: ['JSON'], required: false, description: UPLOAD_REQUESTS }),
    status: t.string({
      required: false,
      description: 'For example collecting.',
      validate: { maxLength: 50 },
    }),
    mode: t.field({ type: DraftModeEnum, required: false }),
    releaseId: t.id({ required: false }),
    conversationId: t.string({ required: false, validate: { minLength: 1, maxLength: 200 } }),
    ifMatch: t.int({ required: false, description: 'The revision the client last saw; 409 when it moved.' }),
  }),
});

const DRAFT_DESCRIPTION =
  'Save a draft. No releaseId/conversationId: a new draft. Drafts never fail on submission rules; they report them.';

const save = (context: Context, input: DraftInput) =>
  saveDraft(context.em, requirePrincipal(context).accountId, input);

builder.mutationField('saveDraft', (t) =>
  t.field({
    type: DraftResultRef,
    authScopes: MCP,
    description: DRAFT_DESCRIPTION,
    args: { input: t.arg({ type: DraftInputRef, required: true }) },
    resolve: (_root, { input }, context) =>
      save(context, {
        release: input.release ? toWire(ReleaseShape, input.release) : undefined,
        tracks: input.tracks ? input.tracks.map((track) => toWire(TrackShape, track)) : undefined,
        trackPatches: input.trackPatches?.map(({ patch, trackNumber, ...rest }) => ({
          ...rest,
          ...(trackNumber === undefined ? {} : { track_number: trackNumber }),
          ...(patch ? { patch: toWire(TrackShape, patch) } : {}),
        })),
        uploadRequests: input.uploadRequests ?? undefined,
        status: input.status ?? null,
        mode: input.mode ?? null,
        releaseId: input.releaseId ?? null,
        conversationId: input.conversationId ?? null,
        ifMatch: input.ifMatch ?? null,
      }),
  }),
);

builder.mutationField('saveDraftWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: DraftResultRef,
    authScopes: MCP,
    description: DRAFT_DESCRIPTION,
    args: {
      release: t.arg({ type: 'JSON', required: false, ...wireBody('release', ReleaseShape) }),
      tracks: t.arg({ type: 'JSON', required: false, ...wireBody('tracks', TrackShape) }),
      trackPatches: t.arg({
        type: 'JSON',
        required: false,
        validate: payloadValidation('trackPatches'),
        extensions: { wireBody: { inputType: 'TrackPatchInput', list: true } },
      }),
      uploadRequests: t.arg({
        type: 'JSON',
        required: false,
        description: UPLOAD_REQUESTS,
        validate: payloadValidation('uploadRequests'),
        extensions: { jsonSchema: UPLOAD_REQUESTS_SCHEMA },
      }),
      status: t.arg.string({ required: false, validate: { maxLength: 50 } }),
      mode: t.arg({ type: DraftModeEnum, required: false }),
      releaseId: t.arg.id({ required: false }),
      conversationId: t.arg.string({ required: false, validate: { minLength: 1, maxLength: 200 } }),
      ifMatch: t.arg.int({
        required: false,
        description: 'The revision the client last saw; 409 when it moved.',
      }),
    },
    resolve: (_root, args, context) =>
      save(context, {
        release: args.release,
        tracks: args.tracks,
        trackPatches: args.trackPatches ?? undefined,
        uploadRequests: args.uploadRequests ?? undefined,
        status: args.status ?? null,
        mode: args.mode ?? null,
        releaseId: args.releaseId ?? null,
        conversationId: args.conversationId ?? null,
        ifMatch: args.ifMatch ?? null,
      }),
  }),
);
