import { z } from 'zod';
import { FACTS } from '../../../schema/facade-facts.ts';
import { saveDraftDocument, submitDocument } from '../../documents.ts';
import { QUOTE_FIELDS, RELEASE_DETAIL_FIELDS, RELEASE_SUMMARY_FIELDS } from '../../selections.ts';
import { defineTool, READ_ONLY, type ToolAnnotations, type ToolRow } from '../tool.ts';

const WRITES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const payload = z.record(z.string(), z.unknown());
const tracks = z.array(payload);
const releaseId = z.string().min(1).describe('A release id (UUID) of yours.');

export const releaseTools: ToolRow[] = [
  defineTool({
    name: 'save_draft',
    title: 'Save a release draft',
    description:
      'Save work in progress. No releaseId/conversationId: a new draft (releaseCreated true). mode delta (default) ' +
      'deep-merges `release`, trackPatches [{index, ...fields}] address tracks; replace overwrites. Drafts never ' +
      'fail on submission rules: submissionWarnings lists them per field, submittable says whether submit would pass.',
    annotations: WRITES,
    args: z.object({
      release: payload.optional(),
      tracks: tracks.optional(),
      trackPatches: z.array(payload).optional(),
      uploadRequests: z.array(z.unknown()).optional(),
      status: z.string().max(50).optional(),
      mode: z.enum(['delta', 'replace']).optional(),
      releaseId: releaseId.optional(),
      conversationId: z.string().min(1).max(200).optional(),
    }),
    document: saveDraftDocument('AgentSaveDraft'),
    variables: (a) => ({ ...a }),
    select: 'draft',
    aliases: ['draft', 'save_release_draft'],
  }),
  defineTool({
    name: 'quote_release',
    title: 'Quote a release',
    description:
      `Price tracks against your balance: ${FACTS.creditsPerHumanTrack} credit per human song, ${FACTS.creditsPerAiTrack} per AI song, 0 for a track without audio, ` +
      `tokenOffset +${FACTS.tokenOffsetCredits}. Returns per-track billing, balance (covered, shortfall), the cheapest bundle that covers ` +
      'a shortfall, and blockers. Creates and charges nothing.',
    annotations: READ_ONLY,
    args: z.object({ tracks, tokenOffset: z.boolean().default(false), release: payload.optional() }),
    document: `query AgentQuote($tracks: JSON!, $release: JSON, $tokenOffset: Boolean) {
      quote: quoteReleaseWire(tracks: $tracks, release: $release, tokenOffset: $tokenOffset) { ${QUOTE_FIELDS} } }`,
    variables: (a) => ({ ...a }),
    select: 'quote',
    aliases: ['quote', 'price_release'],
  }),
  defineTool({
    name: 'submit_release',
    title: 'Submit a release',
    description:
      'Validate, price and submit a release to the stores, paying in credits. Read mcp://docs/metadata-rules-hitlist ' +
      'and quote first. Errors name every offending field (tracks[0].writers[0].name). Re-submitting a submitted ' +
      'release charges nothing; pass idempotencyKey to make retries safe.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    args: z.object({
      release: payload,
      tracks,
      releaseId: releaseId.optional(),
      conversationId: z.string().min(1).max(200).optional(),
      tokenOffset: z.boolean().default(false),
      distributors: payload.optional(),
      skipAdapters: z.boolean().optional(),
      idempotencyKey: z.string().min(1).max(255).optional(),
      provenance: z.string().max(100).optional().describe('Server-to-server agents: the partner tag.'),
    }),
    document: submitDocument('AgentSubmit'),
    variables: (a) => ({ ...a }),
    select: 'submission',
    aliases: ['submit', 'distribute_release'],
  }),
  defineTool({
    name: 'list_releases',
    title: 'List releases',
    description:
      'Your most recent releases (drafts and submitted), newest first. `search` finds releases by a part of ' +
      'the title, an exact UPC, or the exact ISRC of one of their tracks (case and hyphens aside).',
    annotations: READ_ONLY,
    args: z.object({
      limit: z.int().min(1).max(500).default(100),
      search: z
        .string()
        .trim()
        .min(FACTS.releaseSearch.min)
        .max(FACTS.releaseSearch.max)
        .optional()
        .describe(
          `A title part (case-insensitive), a UPC (12 or 13 digits) or an ISRC; ${FACTS.releaseSearch.min} to ${FACTS.releaseSearch.max} characters once trimmed.`,
        ),
    }),
    document: `query AgentListReleases($limit: Int, $search: String) {
      releases(limit: $limit, search: $search) { ${RELEASE_SUMMARY_FIELDS} } }`,
    variables: (a) => ({ limit: a.limit, search: a.search ?? null }),
    select: 'releases',
    aliases: ['releases', 'get_releases'],
  }),
  defineTool({
    name: 'get_release_metadata',
    title: 'Get release metadata',
    description:
      'Merged metadata of one of your releases (draft snapshot or submitted data), with release.artist_profiles.',
    annotations: READ_ONLY,
    args: z.object({ releaseId }),
    document: `query AgentReleaseMetadata($id: ID!) { release(id: $id) { ${RELEASE_DETAIL_FIELDS} } }`,
    variables: (a) => ({ id: a.releaseId }),
    select: 'release',
    aliases: ['release_metadata', 'get_release'],
  }),
];
