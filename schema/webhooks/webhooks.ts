import {
  createEndpoint,
  deleteEndpoint,
  deliveryView,
  endpointView,
  listDeliveries,
  listEndpoints,
  pageOfDeliveries,
  redeliver,
  updateEndpoint,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '../../src/domains/webhooks/index.ts';
import { WEBHOOK_DELIVERY_STATUSES } from '../../src/domains/webhooks/webhook-delivery.entity.ts';
import { outboundPolicyFromConfig } from '../../src/platform/http/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';

const WebhookDeliveryStatusEnum = enumFromList('WebhookDeliveryStatus', WEBHOOK_DELIVERY_STATUSES, {
  description: 'Where one delivery of an event to an endpoint stands.',
  valueDescriptions: {
    pending: 'Not delivered yet; retried on its schedule.',
    succeeded: 'The endpoint answered 2xx.',
    failed: 'Every attempt failed.',
    suppressed: 'Not sent: a duplicate, or the endpoint is disabled.',
  },
});

const WebhookEndpointRef = builder.objectRef<WebhookEndpointView>('WebhookEndpoint').implement({
  description: 'A webhook endpoint. The signing secret is shown once, at creation, and never again.',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    description: t.exposeString('description', { nullable: true }),
    eventTypes: t.exposeStringList('eventTypes', {
      description: 'Stored at creation; later event kinds need an update.',
    }),
    active: t.exposeBoolean('active'),
    failureCount: t.exposeInt('failureCount', {
      description: 'Consecutive failed deliveries; 20 disable the endpoint.',
    }),
    secretPrefix: t.exposeString('secretPrefix', {
      description: 'The first characters of the secret, to recognise it.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true }),
  }),
});

const CreatedWebhookRef = builder
  .objectRef<{ endpoint: WebhookEndpointView; signingSecret: string }>('CreatedWebhookEndpoint')
  .implement({
    description: 'An endpoint just created, with its signing secret shown this once.',
    fields: (t) => ({
      endpoint: t.field({ type: WebhookEndpointRef, resolve: (c) => c.endpoint }),
      signingSecret: t.exposeString('signingSecret', {
        description: 'Shown this once: store it to verify x-svc-signature.',
      }),
    }),
  });

const WebhookDeliveryRef = builder.objectRef<WebhookDeliveryView>('WebhookDelivery').implement({
  description: 'One event sent (or to be sent) to one endpoint.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Also the x-svc-delivery header, the same on every attempt.' }),
    endpointId: t.exposeID('endpointId'),
    eventId: t.id({ resolve: (d) => String(d.eventId) }),
    eventCursor: t.string({ resolve: (d) => String(d.eventCursor) }),
    eventType: t.exposeString('eventType'),
    releaseId: t.exposeID('releaseId', { nullable: true }),
    status: t.expose('status', { type: WebhookDeliveryStatusEnum }),
    attempts: t.exposeInt('attempts'),
    responseStatus: t.exposeInt('responseStatus', { nullable: true }),
    latencyMs: t.exposeInt('latencyMs', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
  }),
});

const DeletedRef = builder.objectRef<{ id: string; deleted: true }>('DeletedWebhookEndpoint').implement({
  description: 'What a deletion removed.',
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

builder.queryField('webhookEndpoints', (t) =>
  t.field({
    type: [WebhookEndpointRef],
    description: 'Your webhook endpoints (secrets are never shown again).',
    authScopes: MCP,
    resolve: async (_root, _args, context) =>
      (await listEndpoints(context.em, requirePrincipal(context).accountId)).map(endpointView),
  }),
);

builder.queryField('webhookDeliveries', (t) =>
  t.field({
    type: [WebhookDeliveryRef],
    authScopes: MCP,
    description: 'The delivery log of one endpoint, newest first.',
    args: {
      endpointId: t.arg.id({ required: true }),
      limit: t.arg.int({ required: false, defaultValue: 20 }),
    },
    resolve: async (_root, args, context) =>
      (
        await listDeliveries(
          context.em,
          requirePrincipal(context).accountId,
          args.endpointId,
          args.limit ?? 20,
        )
      ).map(deliveryView),
  }),
);

builder.queryField('webhookDeliveriesConnection', (t) =>
  t.connection(
    {
      type: WebhookDeliveryRef,
      authScopes: MCP,
      description:
        'The delivery log of one endpoint, newest first, as a Relay connection with keyset cursors (at most ' +
        '100 a page, 20 by default).',
      args: { endpointId: t.arg.id({ required: true }) },
      resolve: async (_root, args, context) => {
        const page = await pageOfDeliveries(
          context.em,
          requirePrincipal(context).accountId,
          args.endpointId,
          args,
        );
        return { ...page, edges: page.edges.map((edge) => ({ ...edge, node: deliveryView(edge.node) })) };
      },
    },
    { description: "A page of an endpoint's deliveries, newest first." },
    { description: 'A delivery with its cursor.' },
  ),
);

builder.mutationField('createWebhookEndpoint', (t) =>
  t.field({
    type: CreatedWebhookRef,
    authScopes: MCP,
    description: 'https only; at most 5 per account; eventTypes default to every kind that exists now.',
    args: {
      url: t.arg.string({ required: true }),
      description: t.arg.string({ required: false }),
      eventTypes: t.arg.stringList({ required: false }),
    },
    resolve: async (_root, args, context) => {
      const { endpoint, secret } = await createEndpoint(
        context.em,
        requirePrincipal(context).accountId,
        { url: args.url, description: args.description ?? null, eventTypes: args.eventTypes ?? null },
        { policy: outboundPolicyFromConfig(context.app.config), secretKey: context.app.webhookSecretKey },
      );
      return { endpoint: endpointView(endpoint), signingSecret: secret };
    },
  }),
);

builder.mutationField('updateWebhookEndpoint', (t) =>
  t.field({
    type: WebhookEndpointRef,
    authScopes: MCP,
    description: '`active: true` re-enables a disabled endpoint and resets its failure count.',
    args: {
      id: t.arg.id({ required: true }),
      active: t.arg.boolean({ required: false }),
      eventTypes: t.arg.stringList({ required: false }),
      description: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, context) =>
      endpointView(
        await updateEndpoint(context.em, requirePrincipal(context).accountId, args.id, {
          active: args.active ?? undefined,
          eventTypes: args.eventTypes ?? undefined,
          description: args.description ?? undefined,
        }),
      ),
  }),
);

builder.mutationField('deleteWebhookEndpoint', (t) =>
  t.field({
    type: DeletedRef,
    description: 'Deletes one of your webhook endpoints; pending deliveries to it are dropped.',
    authScopes: MCP,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) =>
      deleteEndpoint(context.em, requirePrincipal(context).accountId, args.id),
  }),
);

builder.mutationField('redeliverWebhook', (t) =>
  t.field({
    type: WebhookDeliveryRef,
    authScopes: MCP,
    description: 'Sends one delivery again (same delivery id), now.',
    args: { endpointId: t.arg.id({ required: true }), deliveryId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) =>
      deliveryView(
        await redeliver(context.em, requirePrincipal(context).accountId, args.endpointId, args.deliveryId),
      ),
  }),
);
