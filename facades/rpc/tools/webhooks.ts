import { z } from 'zod';
import { FACTS, sandboxRateText } from '../../../schema/facade-facts.ts';
import { SANDBOX_EVENT_FIELDS, WEBHOOK_DELIVERY_FIELDS, WEBHOOK_ENDPOINT_FIELDS } from '../../selections.ts';
import { defineTool, type ToolRow } from '../tool.ts';

const endpointId = z.string().min(1).describe('A webhook endpoint id (UUID) of yours.');
const grace = FACTS.webhookGraceSeconds;

export const webhookTools: ToolRow[] = [
  defineTool({
    name: 'ping_webhook',
    title: 'Ping a webhook endpoint',
    description:
      'Send a signed test event (event type ping) to one of your webhook endpoints now, also a disabled one, ' +
      'and get its delivery record: status (succeeded or failed), response_status, latency_ms, last_error. ' +
      'One attempt, no retry; it shows in the delivery log and does not change the failure count. ' +
      'Errors: 404 not your endpoint.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    args: z.object({ endpointId }),
    document: `mutation AgentPingWebhook($id: ID!) {
      delivery: pingWebhookEndpoint(id: $id) { ${WEBHOOK_DELIVERY_FIELDS} } }`,
    variables: (a) => ({ id: a.endpointId }),
    select: 'delivery',
    aliases: ['test_webhook', 'send_test_webhook'],
  }),
  defineTool({
    name: 'rotate_webhook_secret',
    title: 'Rotate a webhook signing secret',
    description:
      'Give one of your webhook endpoints a new signing secret, returned this once as signing_secret with the ' +
      `endpoint. For graceSeconds (${grace.min} to ${grace.max}, default ${grace.default}) deliveries are signed by the new ` +
      'and the old secret, so the receiver can switch without missing one; endpoint.previous_secret_expires_at ' +
      'tells when the old one stops. A rotation inside a window drops the older secret. Errors: 404 not your ' +
      'endpoint, 400 graceSeconds out of range.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    args: z.object({
      endpointId,
      graceSeconds: z
        .number()
        .int()
        .min(grace.min)
        .max(grace.max)
        .optional()
        .describe(`Seconds the old secret keeps signing (${grace.min}: none); default ${grace.default}.`),
    }),
    document: `mutation AgentRotateWebhookSecret($id: ID!, $graceSeconds: Int) {
      rotated: rotateWebhookSecret(id: $id, graceSeconds: $graceSeconds) {
        signing_secret: signingSecret endpoint { ${WEBHOOK_ENDPOINT_FIELDS} } } }`,
    variables: (a) => ({ id: a.endpointId, graceSeconds: a.graceSeconds }),
    select: 'rotated',
    aliases: ['rotate_signing_secret', 'roll_webhook_secret'],
  }),
  defineTool({
    name: 'trigger_sandbox_event',
    title: 'Trigger a test release event',
    description:
      'Make a test event of one kind (release.status_changed, release.approved, release.stores_added, ' +
      'release.takedown_completed) for one of your submitted releases, or without releaseId for your sandbox ' +
      'sample release (made once, never charged). It is published like every event: releaseEvents ' +
      "subscribers and your webhook endpoints receive it, in the kind's payload shape with test: true; the " +
      'release itself does not change. Returns {event_id, type, release_id, sample_release, payload, ' +
      `occurred_at, remaining}. Errors: 409 sandbox_only (this deployment delivers to real stores), 404 not ` +
      `your release, 409 a draft, 429 over ${sandboxRateText()}.`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    args: z.object({
      type: z.enum(FACTS.releaseEventTypes).describe('The kind of event, as webhooks name it.'),
      releaseId: z
        .string()
        .min(1)
        .optional()
        .describe('One of your submitted releases (UUID); omitted: your sandbox sample release.'),
    }),
    document: `mutation AgentTriggerSandboxEvent($type: ReleaseEventType!, $releaseId: ID) {
      triggered: triggerSandboxEvent(input: { type: $type, releaseId: $releaseId }) { ${SANDBOX_EVENT_FIELDS} } }`,
    variables: (a) => ({ type: a.type, releaseId: a.releaseId }),
    select: 'triggered',
    aliases: ['trigger_webhook_event', 'send_test_event'],
  }),
];
