import { releaseSchema } from '../../src/domains/releases/index.ts';
import { builder, FACADE_ONLY, MCP } from '../builder.ts';
import { ReleaseShape, TrackShape } from './release-shape.ts';

type ReleaseSchema = ReturnType<typeof releaseSchema>;
type FieldLists = Record<string, string[]>;

const FieldListsRef = builder.objectRef<FieldLists>('ReleaseSchemaFields').implement({
  description: 'Field names (wire names, as REST and agent bodies spell them), per object.',
  fields: (t) => ({
    release: t.stringList({ resolve: (lists) => lists.release ?? [] }),
    track: t.stringList({ resolve: (lists) => lists.track ?? [] }),
    writer: t.stringList({ resolve: (lists) => lists.writer ?? [] }),
    primaryArtist: t.stringList({ resolve: (lists) => lists.primaryArtist ?? [] }),
  }),
});

const FieldAliasRef = builder.objectRef<[string, string]>('FieldAlias').implement({
  description:
    'A name REST and agent bodies may use in place of a field (GraphQL inputs have one name per field).',
  fields: (t) => ({
    alias: t.string({ resolve: ([alias]) => alias }),
    canonical: t.string({ resolve: ([, canonical]) => canonical }),
  }),
});

const BillingRef = builder.objectRef<ReleaseSchema['billing']>('ReleaseSchemaBilling').implement({
  description: 'What submission debits.',
  fields: (t) => ({
    summary: t.exposeString('summary'),
    creditsPerHumanTrack: t.exposeInt('creditsPerHumanTrack'),
    creditsPerAiTrack: t.exposeInt('creditsPerAiTrack'),
    tokenOffsetCredits: t.exposeInt('tokenOffsetCredits'),
  }),
});

const ExampleRef = builder.objectRef<ReleaseSchema['example']>('ReleaseSchemaExample').implement({
  description: 'A complete submission that passes the rules (point its file URLs at your own uploads).',
  fields: (t) => ({
    release: t.field({ type: ReleaseShape.output, resolve: (example) => example.release }),
    tracks: t.field({ type: [TrackShape.output], resolve: (example) => example.tracks }),
    tokenOffset: t.boolean({ resolve: (example) => example.token_offset }),
  }),
});

const ReleaseSchemaRef = builder.objectRef<ReleaseSchema>('ReleaseSchema').implement({
  description: 'Authoritative required fields, accepted aliases and a complete example payload.',
  fields: (t) => ({
    version: t.exposeString('version'),
    required: t.field({ type: FieldListsRef, resolve: (schema) => schema.required }),
    optional: t.field({ type: FieldListsRef, resolve: (schema) => schema.optional }),
    aliases: t.field({ type: [FieldAliasRef], resolve: (schema) => Object.entries(schema.aliases) }),
    billing: t.field({ type: BillingRef, resolve: (schema) => schema.billing }),
    example: t.field({ type: ExampleRef, resolve: (schema) => schema.example }),
  }),
});

const DESCRIPTION = 'Authoritative required fields, accepted aliases and a complete example payload.';

builder.queryField('releaseSchema', (t) =>
  t.field({
    type: ReleaseSchemaRef,
    authScopes: MCP,
    description: DESCRIPTION,
    resolve: () => releaseSchema(),
  }),
);

builder.queryField('releaseSchemaWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: 'JSON',
    authScopes: MCP,
    description: `${DESCRIPTION} As REST and agent bodies show it (aliases as an object).`,
    resolve: () => releaseSchema(),
  }),
);
