import { z } from 'zod';
import { FACTS } from '../../../schema/facade-facts.ts';
import { WEBHOOK_DELIVERY_FIELDS, WEBHOOK_ENDPOINT_FIELDS } from '../../selections.ts';
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
];
