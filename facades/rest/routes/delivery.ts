import { RELEASE_JOB_FIELDS, RELEASE_STATUS_FIELDS } from '../../selections.ts';
import { pathParam, type RestRoute } from '../route.ts';

export const deliveryRoutes: RestRoute[] = [
  {
    operationId: 'getReleaseStatus',
    method: 'GET',
    path: '/releases/:id/status',
    summary:
      'Per-store delivery state plus aggregateStatus (queued with pending: true until the distributor has it)',
    tag: 'Delivery',
    auth: 'bearer',
    document: `query GetReleaseStatus($id: ID!) { status: releaseStatus(releaseId: $id) { ${RELEASE_STATUS_FIELDS} } }`,
    variables: { id: pathParam('id') },
    select: 'status',
  },
  {
    operationId: 'getReleaseJob',
    method: 'GET',
    path: '/releases/:id/job',
    summary: 'The background processing job of a release: state, steps and errors',
    tag: 'Delivery',
    auth: 'bearer',
    document: `query GetReleaseJob($id: ID!) { job: releaseJob(releaseId: $id) { ${RELEASE_JOB_FIELDS} } }`,
    variables: { id: pathParam('id') },
    select: 'job',
  },
];
