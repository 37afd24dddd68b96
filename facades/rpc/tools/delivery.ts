import { z } from 'zod';
import { RELEASE_JOB_FIELDS, RELEASE_STATUS_FIELDS } from '../../selections.ts';
import { defineTool, READ_ONLY, type ToolRow } from '../tool.ts';

const releaseId = z.string().min(1).describe('A release id (UUID) of yours.');

export const deliveryTools: ToolRow[] = [
  defineTool({
    name: 'get_release_status',
    title: 'Get release status',
    description:
      'Where a release is, store by store: storeId, storeName, statusText (Queued, In inspection, Delivered to ' +
      'DSP, Live with urlInStore, Takedown delivered) and aggregateStatus (queued, pending, delivered, ' +
      'distributed, taken_down). pending: true until the distributor has the release; fallback: true with ' +
      'fallbackReason when the distributor is unreachable (last known statuses).',
    annotations: READ_ONLY,
    args: z.object({ releaseId }),
    document: `query AgentReleaseStatus($id: ID!) { status: releaseStatus(releaseId: $id) { ${RELEASE_STATUS_FIELDS} } }`,
    variables: (a) => ({ id: a.releaseId }),
    select: 'status',
    aliases: ['get_status', 'delivery_status'],
  }),
  defineTool({
    name: 'get_release_job',
    title: 'Get release job',
    description:
      'The background processing job of a submitted release: state, steps and errors (with store ids).',
    annotations: READ_ONLY,
    args: z.object({ releaseId }),
    document: `query AgentReleaseJob($id: ID!) { job: releaseJob(releaseId: $id) { ${RELEASE_JOB_FIELDS} } }`,
    variables: (a) => ({ id: a.releaseId }),
    select: 'job',
    aliases: ['release_job', 'get_job'],
  }),
];
