import { FACTS, pageText, sandboxRateText } from '../../../schema/facade-facts.ts';
import { SANDBOX_EVENT_FIELDS, WEBHOOK_DELIVERY_FIELDS, WEBHOOK_ENDPOINT_FIELDS } from '../../selections.ts';
import { bodyField, integer, pathParam, query, type RestRoute } from '../route.ts';

const TAG = 'Webhooks';

export const webhookRoutes: RestRoute[] = [
  {
    operationId: 'listWebhooks',
    method: 'GET',
    path: '/webhooks',
    summary: 'Your webhook endpoints (never with secrets)',
    tag: TAG,
    auth: 'bearer',
    document: `query ListWebhooks { webhooks: webhookEndpoints { ${WEBHOOK_ENDPOINT_FIELDS} } }`,
  },
  {
    operationId: 'createWebhook',
    method: 'POST',
    path: '/webhooks',
    summary: `Register an https endpoint (at most ${FACTS.maxWebhookEndpoints}); the signing secret is returned this once`,
    tag: TAG,
    auth: 'bearer',
    document: `mutation CreateWebhook($url: String!, $description: String, $eventTypes: [String!]) {
      created: createWebhookEndpointWire(url: $url, description: $description, eventTypes: $eventTypes) {
        signing_secret: signingSecret endpoint { ${WEBHOOK_ENDPOINT_FIELDS} } } }`,
    variables: {
      url: bodyField('url'),
      description: bodyField('description'),
      eventTypes: bodyField('event_types'),
    },
    select: 'created',
    status: 201,
  },
  {
    operationId: 'updateWebhook',
    method: 'PATCH',
    path: '/webhooks/:id',
    summary: 'Change active or event_types; active: true re-enables and resets the failure count',
    tag: TAG,
    auth: 'bearer',
    document: `mutation UpdateWebhook($id: ID!, $active: Boolean, $eventTypes: [String!], $description: String) {
      webhook: updateWebhookEndpointWire(id: $id, active: $active, eventTypes: $eventTypes, description: $description) {
        ${WEBHOOK_ENDPOINT_FIELDS} } }`,
    variables: {
      id: pathParam('id'),
      active: bodyField('active'),
      eventTypes: bodyField('event_types'),
      description: bodyField('description'),
    },
    select: 'webhook',
  },
  {
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: '/webhooks/:id',
    summary: 'Delete an endpoint',
    tag: TAG,
    auth: 'bearer',
    document: `mutation DeleteWebhook($id: ID!) { deleted: deleteWebhookEndpoint(id: $id) { id deleted } }`,
    variables: { id: pathParam('id') },
    select: 'deleted',
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/webhooks/:id/deliveries',
    summary: 'The delivery log of an endpoint: status, attempts, response code and latency',
    tag: TAG,
    auth: 'bearer',
    document: `query ListWebhookDeliveries($id: ID!, $limit: Int) {
      deliveries: webhookDeliveries(endpointId: $id, limit: $limit) { ${WEBHOOK_DELIVERY_FIELDS} } }`,
    variables: {
      id: pathParam('id'),
      limit: query('limit', integer, `How many (${pageText(FACTS.webhookLogPage)}).`, {
        minimum: FACTS.webhookLogPage.min,
        maximum: FACTS.webhookLogPage.max,
      }),
    },
  },
  {
    operationId: 'redeliverWebhook',
    method: 'POST',
    path: '/webhooks/:id/deliveries/:deliveryId/redeliver',
    summary: 'Send one delivery again, now (same delivery id)',
    tag: TAG,
    auth: 'bearer',
    document: `mutation RedeliverWebhook($id: ID!, $deliveryId: ID!) {
      delivery: redeliverWebhook(endpointId: $id, deliveryId: $deliveryId) { ${WEBHOOK_DELIVERY_FIELDS} } }`,
    variables: { id: pathParam('id'), deliveryId: pathParam('deliveryId') },
    select: 'delivery',
  },
  {
    operationId: 'pingWebhook',
    method: 'POST',
    path: '/webhooks/:id/ping',
    summary: 'Send a signed test event (ping) to an endpoint now; answers with its delivery record',
    tag: TAG,
    auth: 'bearer',
    document: `mutation PingWebhook($id: ID!) {
      delivery: pingWebhookEndpoint(id: $id) { ${WEBHOOK_DELIVERY_FIELDS} } }`,
    variables: { id: pathParam('id') },
    select: 'delivery',
  },
  {
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/webhooks/:id/rotate-secret',
    summary:
      'Give an endpoint a new signing secret (returned this once); the old one signs too for grace_seconds',
    tag: TAG,
    auth: 'bearer',
    document: `mutation RotateWebhookSecret($id: ID!, $graceSeconds: Int) {
      rotated: rotateWebhookSecret(id: $id, graceSeconds: $graceSeconds) {
        signing_secret: signingSecret endpoint { ${WEBHOOK_ENDPOINT_FIELDS} } } }`,
    variables: { id: pathParam('id'), graceSeconds: bodyField('grace_seconds') },
    select: 'rotated',
  },
  {
    operationId: 'triggerSandboxEvent',
    method: 'POST',
    path: '/sandbox/events',
    summary:
      'Make a test event (type: a release event kind) for release_id or your sandbox sample release; it reaches ' +
      `subscribers and webhooks with test: true. Sandbox only (409 sandbox_only); ${sandboxRateText()}`,
    tag: TAG,
    auth: 'bearer',
    document: `mutation TriggerSandboxEvent($type: ReleaseEventType!, $releaseId: ID) {
      triggered: triggerSandboxEvent(input: { type: $type, releaseId: $releaseId }) { ${SANDBOX_EVENT_FIELDS} } }`,
    variables: { type: bodyField('type'), releaseId: bodyField('release_id') },
    select: 'triggered',
    status: 201,
    errors: ['404'],
  },
];
