import { FACTS, pageText } from '../../../schema/facade-facts.ts';
import { invalidRequest } from '../../../src/platform/errors.ts';
import { saveDraftDocument, submitDocument } from '../../documents.ts';
import { QUOTE_FIELDS, RELEASE_DETAIL_FIELDS, RELEASE_SUMMARY_FIELDS } from '../../selections.ts';
import { bodyField, header, integer, pathParam, query, type RestRoute } from '../route.ts';

/** `If-Match: 3`, `"3"` or `W/"3"`: the draft revision the client last saw. */
export function revisionTag(raw: unknown, name: string): number {
  const text = String(raw)
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
  if (!/^\d+$/.test(text)) {
    throw invalidRequest(
      `${name} must carry a draft revision number.`,
      [{ path: name, message: 'not a revision' }],
      'invalid_parameter',
    );
  }
  return Number.parseInt(text, 10);
}

export const releaseRoutes: RestRoute[] = [
  {
    operationId: 'saveDraft',
    method: 'POST',
    path: '/drafts',
    summary:
      'Save a draft (new, or delta/replace of an existing one); reports submission rules, never fails on them',
    tag: 'Drafts and releases',
    auth: 'bearer',
    document: saveDraftDocument('SaveDraft'),
    variables: {
      release: bodyField('release'),
      tracks: bodyField('tracks'),
      trackPatches: bodyField('track_patches'),
      uploadRequests: bodyField('upload_requests'),
      status: bodyField('status'),
      mode: bodyField('mode'),
      releaseId: bodyField('release_id'),
      conversationId: bodyField('conversation_id'),
      ifMatch: {
        ...header('If-Match', 'The draft revision the client last saw; 409 when the draft has moved on.'),
        parse: revisionTag,
      },
    },
    select: 'draft',
  },
  {
    operationId: 'listReleases',
    method: 'GET',
    path: '/releases',
    summary: 'Recent releases of the caller, newest first (limit-only paging), optionally searched',
    tag: 'Drafts and releases',
    auth: 'bearer',
    document: `query ListReleases($limit: Int, $search: String) {
      releases(limit: $limit, search: $search) { ${RELEASE_SUMMARY_FIELDS} } }`,
    variables: {
      limit: query('limit', integer, `How many releases (${pageText(FACTS.releasesPage)}).`, {
        minimum: FACTS.releasesPage.min,
        maximum: FACTS.releasesPage.max,
      }),
      search: query('search'),
    },
  },
  {
    operationId: 'quoteRelease',
    method: 'POST',
    path: '/releases/quote',
    summary: 'Price a release against the credit balance; creates and charges nothing',
    tag: 'Drafts and releases',
    auth: 'bearer',
    document: `query QuoteRelease($tracks: JSON!, $release: JSON, $tokenOffset: Boolean) {
      quote: quoteReleaseWire(tracks: $tracks, release: $release, tokenOffset: $tokenOffset) { ${QUOTE_FIELDS} } }`,
    variables: {
      tracks: bodyField('tracks'),
      release: bodyField('release'),
      tokenOffset: bodyField('token_offset'),
    },
    select: 'quote',
  },
  {
    operationId: 'submitRelease',
    method: 'POST',
    path: '/releases',
    summary: 'Submit a release for distribution, paying in credits (one transaction; retry-safe)',
    tag: 'Drafts and releases',
    auth: 'bearer',
    document: submitDocument('SubmitRelease'),
    variables: {
      release: bodyField('release'),
      tracks: bodyField('tracks'),
      releaseId: bodyField('release_id'),
      conversationId: bodyField('conversation_id'),
      tokenOffset: bodyField('token_offset'),
      distributors: bodyField('distributors'),
      skipAdapters: bodyField('skip_adapters'),
      idempotencyKey: header(
        'Idempotency-Key',
        'Makes a retry safe: the same key and body answer the same release, kept 24 h.',
      ),
      provenance: header('X-Svc-Provenance', 'A partner tag attributing the release; default MCP.'),
    },
    select: 'submission',
    status: 201,
  },
  {
    operationId: 'getRelease',
    method: 'GET',
    path: '/releases/:id',
    summary: 'Merged metadata of a release, with release.artist_profiles',
    tag: 'Drafts and releases',
    auth: 'bearer',
    document: `query GetRelease($id: ID!) { release(id: $id) { ${RELEASE_DETAIL_FIELDS} } }`,
    variables: { id: pathParam('id') },
    select: 'release',
  },
];
