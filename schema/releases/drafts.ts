import { DRAFT_MODES, type DraftResult, saveDraft } from '../../src/domains/releases/save-draft.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';
import { payloadValidation } from './payload-validation.ts';
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

const LatestRef = builder.objectRef<DraftResult['latest']>('DraftLatest').implement({
  description: 'The draft as saved now.',
  fields: (t) => ({
    payload: t.field({
      type: 'JSON',
      description: 'The release object as saved.',
      resolve: (l) => l.payload,
    }),
    tracks: t.field({ type: 'JSON', resolve: (l) => l.tracks }),
    uploadRequests: t.field({ type: 'JSON', resolve: (l) => l.uploadRequests }),
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

builder.mutationField('saveDraft', (t) =>
  t.field({
    type: DraftResultRef,
    authScopes: MCP,
    description:
      'Save a draft. No releaseId/conversationId: a new draft. Drafts never fail on submission rules; they report them.',
    args: {
      release: t.arg({ type: 'JSON', required: false, validate: payloadValidation('release') }),
      tracks: t.arg({ type: 'JSON', required: false, validate: payloadValidation('tracks') }),
      trackPatches: t.arg({ type: 'JSON', required: false, validate: payloadValidation('trackPatches') }),
      uploadRequests: t.arg({ type: 'JSON', required: false, validate: payloadValidation('uploadRequests') }),
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
      saveDraft(context.em, requirePrincipal(context).accountId, {
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
