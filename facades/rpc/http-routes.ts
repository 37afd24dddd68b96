import { FACTS, rateText } from '../../schema/facade-facts.ts';
import { saveDraftDocument, submitDocument } from '../documents.ts';
import { bodyField, header, integer, pathParam, query, type RestRoute } from '../rest/route.ts';
import { revisionTag } from '../rest/routes/releases.ts';
import {
  RELEASE_DETAIL_FIELDS,
  RELEASE_JOB_FIELDS,
  RELEASE_STATUS_FIELDS,
  RELEASE_SUMMARY_FIELDS,
} from '../selections.ts';

/**
 * The agent interface's plain HTTP endpoints under /api/mcp (camelCase bodies), as rows of the same kind
 * as the REST table, run on the `agent_http` channel: POST /submit carries its own rate limit.
 */
export const agentHttpRoutes: RestRoute[] = [
  {
    operationId: 'agentSaveDraft',
    method: 'POST',
    path: '/draft',
    summary: 'Save a draft (camelCase DraftRequest)',
    tag: 'Agent HTTP',
    auth: 'bearer',
    document: saveDraftDocument('AgentHttpSaveDraft'),
    variables: {
      release: bodyField('release'),
      tracks: bodyField('tracks'),
      trackPatches: bodyField('trackPatches'),
      uploadRequests: bodyField('uploadRequests'),
      status: bodyField('status'),
      mode: bodyField('mode'),
      releaseId: bodyField('releaseId'),
      conversationId: bodyField('conversationId'),
      ifMatch: { ...header('If-Match'), parse: revisionTag },
    },
    select: 'draft',
  },
  {
    operationId: 'agentSubmitRelease',
    method: 'POST',
    path: '/submit',
    summary: `Submit a release (camelCase SubmitReleaseRequest); ${rateText(FACTS.agentSubmitRate)}`,
    tag: 'Agent HTTP',
    auth: 'bearer',
    document: submitDocument('AgentHttpSubmit'),
    variables: {
      release: bodyField('release'),
      tracks: bodyField('tracks'),
      releaseId: bodyField('releaseId'),
      conversationId: bodyField('conversationId'),
      tokenOffset: bodyField('tokenOffset'),
      distributors: bodyField('distributors'),
      skipAdapters: bodyField('skipAdapters'),
      idempotencyKey: header('Idempotency-Key'),
      provenance: header('X-Svc-Provenance'),
    },
    select: 'submission',
    status: 201,
  },
  {
    operationId: 'agentListReleases',
    method: 'GET',
    path: '/releases',
    summary: 'Recent releases',
    tag: 'Agent HTTP',
    auth: 'bearer',
    document: `query AgentHttpListReleases($limit: Int, $search: String) {
      releases(limit: $limit, search: $search) { ${RELEASE_SUMMARY_FIELDS} } }`,
    variables: { limit: query('limit', integer), search: query('search') },
  },
  {
    operationId: 'agentReleaseMetadata',
    method: 'GET',
    path: '/releases/:id/metadata',
    summary: 'Merged metadata of a release',
    tag: 'Agent HTTP',
    auth: 'bearer',
    document: `query AgentHttpReleaseMetadata($id: ID!) { release(id: $id) { ${RELEASE_DETAIL_FIELDS} } }`,
    variables: { id: pathParam('id') },
    select: 'release',
  },
  {
    operationId: 'agentReleaseStatus',
    method: 'GET',
    path: '/releases/:id/status',
    summary: 'Store and aggregate status',
    tag: 'Agent HTTP',
    auth: 'bearer',
    document: `query AgentHttpReleaseStatus($id: ID!) { status: releaseStatus(releaseId: $id) { ${RELEASE_STATUS_FIELDS} } }`,
    variables: { id: pathParam('id') },
    select: 'status',
  },
  {
    operationId: 'agentReleaseJob',
    method: 'GET',
    path: '/release-jobs/:id',
    summary: 'Job status and errors (by release id)',
    tag: 'Agent HTTP',
    auth: 'bearer',
    document: `query AgentHttpReleaseJob($id: ID!) { job: releaseJob(releaseId: $id) { ${RELEASE_JOB_FIELDS} } }`,
    variables: { id: pathParam('id') },
    select: 'job',
  },
];
