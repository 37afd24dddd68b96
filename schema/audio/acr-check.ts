import type { DspLink } from '../../src/domains/audio/index.ts';
import { type AcrMatch, type AcrResult, acrCheck } from '../../src/domains/audio/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { AnalysisStatusEnum } from './ai-detection.ts';
import { audioFileArgs } from './args.ts';
import { audioDeps } from './deps.ts';

const DspLinkRef = builder.objectRef<DspLink>('DspLink').implement({
  description: 'Where a recording can be heard in a store.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The store.' }),
    url: t.exposeString('url', { description: "The recording's page in the store." }),
  }),
});

const AcrMatchRef = builder.objectRef<AcrMatch>('AcrMatch').implement({
  description: 'The registered recording an audio file matches.',
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Title of the recording.' }),
    artist: t.exposeString('artist', { nullable: true, description: 'Its main artist.' }),
    isrc: t.exposeString('isrc', { nullable: true, description: 'Its ISRC.' }),
    albumName: t.exposeString('albumName', { nullable: true, description: 'The release it is on.' }),
    label: t.exposeString('label', { nullable: true, description: 'Its label.' }),
    queryMatchPercentage: t.exposeFloat('queryMatchPercentage', {
      description: "Share of the file's fingerprint found in the recording, 0..100.",
    }),
    confidence: t.exposeFloat('confidence', { description: 'How sure the match is, 0..1.' }),
    dspLinks: t.field({
      type: [DspLinkRef],
      description: 'Store links of the recording.',
      resolve: (m) => m.dspLinks,
    }),
    ownRelease: t.exposeBoolean('ownRelease', {
      description: 'True when it is a live release of your own (not a rights conflict).',
    }),
    releaseId: t.exposeID('releaseId', {
      nullable: true,
      description: 'Your release, when ownRelease is true.',
    }),
  }),
});

const AcrResultRef = builder.objectRef<AcrResult>('AcrResult').implement({
  description:
    'Whether an audio file matches a recording in the registry (docs/audio.md). No billing effect.',
  fields: (t) => ({
    status: t.field({
      type: AnalysisStatusEnum,
      description: 'Whether the check ran.',
      resolve: (r) => r.status,
    }),
    matched: t.exposeBoolean('matched', { description: 'True only when queryMatchPercentage is above 10.' }),
    bestMatch: t.field({
      type: AcrMatchRef,
      nullable: true,
      description: 'The best match; null when none clears 10%.',
      resolve: (r) => r.bestMatch,
    }),
    provider: t.exposeString('provider', { description: 'Who ran the check.' }),
    model: t.exposeString('model', { description: 'The matcher and its version.' }),
    message: t.exposeString('message', { nullable: true, description: 'What was found, in words.' }),
    cached: t.exposeBoolean('cached', { description: 'True when this file was checked before.' }),
  }),
});

builder.mutationField('acrCheck', (t) =>
  t.field({
    type: AcrResultRef,
    authScopes: MCP,
    description:
      'Check one of your audio files against the registry of recordings (releases live here and the reference ' +
      'catalogue). Optional; not required for submission; no billing effect. Cached per file.',
    args: audioFileArgs,
    resolve: (_root, args, context) =>
      acrCheck(audioDeps(context), requirePrincipal(context).accountId, { fileUrl: args.fileUrl }),
  }),
);
