import {
  createEndpoint,
  deleteEndpoint,
  endpointView,
  listEndpoints,
  listWebhookDeliveries,
  pageOfWebhookDeliveries,
  redeliverWebhook,
  updateEndpoint,
  type WebhookEndpointView,
  webhookDeliveryView,
} from '../../src/domains/webhooks/index.ts';
import { outboundPolicyFromConfig } from '../../src/platform/http/index.ts';
import { builder, FACADE_ONLY, MCP } from '../builder.ts';
import { type Context, requirePrincipal } from '../context.ts';
import { ReleaseEventTypeEnum } from '../events/release-events.ts';
import { WebhookDeliveryRef, WebhookEndpointRef } from './types.ts';

const CreatedWebhookRef = builder
  .objectRef<{ endpoint: WebhookEndpointView; signingSecret: string }>('CreatedWebhookEndpoint')
  .implement({
    description: 'An endpoint just created, with its signing secret shown this once.',
    fields: (t) => ({
      endpoint: t.field({ type: WebhookEndpointRef, resolve: (c) => c.endpoint }),
      signingSecret: t.exposeString('signingSecret', {
        description: 'Shown this once: store it to verify webhook-signature or x-svc-signature.',
      }),
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
        await listWebhookDeliveries(
          context.em,
          requirePrincipal(context).accountId,
          args.endpointId,
          args.limit ?? 20,
        )
      ).map(webhookDeliveryView),
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
        const page = await pageOfWebhookDeliveries(
          context.em,
          requirePrincipal(context).accountId,
          args.endpointId,
          args,
        );
        return {
          ...page,
          edges: page.edges.map((edge) => ({ ...edge, node: webhookDeliveryView(edge.node) })),
        };
      },
    },
    { description: "A page of an endpoint's deliveries, newest first." },
    { description: 'A delivery with its cursor.' },
  ),
);

const CreateWebhookEndpointInputRef = builder.inputType('CreateWebhookEndpointInput', {
  description: 'A new webhook endpoint.',
  fields: (t) => ({
    url: t.string({ required: true, description: 'https only.' }),
    description: t.string({ required: false }),
    eventTypes: t.field({
      type: [ReleaseEventTypeEnum],
      required: false,
      description: 'The event kinds to deliver; omitted: every kind that exists now.',
    }),
  }),
});

const UpdateWebhookEndpointInputRef = builder.inputType('UpdateWebhookEndpointInput', {
  description: 'Changes to a webhook endpoint; omitted fields stay as they are.',
  fields: (t) => ({
    id: t.id({ required: true }),
    active: t.boolean({ required: false, description: 'true re-enables a disabled endpoint.' }),
    eventTypes: t.field({ type: [ReleaseEventTypeEnum], required: false }),
    description: t.string({ required: false }),
  }),
});

interface EndpointChanges {
  active?: boolean | null;
  eventTypes?: readonly string[] | null;
  description?: string | null;
}

const CREATE_DESCRIPTION =
  'https only; at most 5 per account; eventTypes default to every kind that exists now.';
const UPDATE_DESCRIPTION = '`active: true` re-enables a disabled endpoint and resets its failure count.';

async function create(
  context: Context,
  fields: { url: string; description?: string | null; eventTypes?: readonly string[] | null },
) {
  const { endpoint, secret } = await createEndpoint(
    context.em,
    requirePrincipal(context).accountId,
    {
      url: fields.url,
      description: fields.description ?? null,
      eventTypes: fields.eventTypes ? [...fields.eventTypes] : null,
    },
    { policy: outboundPolicyFromConfig(context.app.config), secretKey: context.app.webhookSecretKey },
  );
  return { endpoint: endpointView(endpoint), signingSecret: secret };
}

async function update(context: Context, id: string, changes: EndpointChanges) {
  return endpointView(
    await updateEndpoint(context.em, requirePrincipal(context).accountId, id, {
      active: changes.active ?? undefined,
      eventTypes: changes.eventTypes ? [...changes.eventTypes] : undefined,
      description: changes.description ?? undefined,
    }),
  );
}

builder.mutationField('createWebhookEndpoint', (t) =>
  t.field({
    type: CreatedWebhookRef,
    authScopes: MCP,
    description: CREATE_DESCRIPTION,
    args: { input: t.arg({ type: CreateWebhookEndpointInputRef, required: true }) },
    resolve: (_root, { input }, context) => create(context, input),
  }),
);

builder.mutationField('createWebhookEndpointWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: CreatedWebhookRef,
    authScopes: MCP,
    description: `${CREATE_DESCRIPTION} Unknown event types are refused with their positions.`,
    args: {
      url: t.arg.string({ required: true }),
      description: t.arg.string({ required: false }),
      eventTypes: t.arg.stringList({ required: false }),
    },
    resolve: (_root, args, context) => create(context, args),
  }),
);

builder.mutationField('updateWebhookEndpoint', (t) =>
  t.field({
    type: WebhookEndpointRef,
    authScopes: MCP,
    description: UPDATE_DESCRIPTION,
    args: { input: t.arg({ type: UpdateWebhookEndpointInputRef, required: true }) },
    resolve: (_root, { input }, context) => update(context, input.id, input),
  }),
);

builder.mutationField('updateWebhookEndpointWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: WebhookEndpointRef,
    authScopes: MCP,
    description: `${UPDATE_DESCRIPTION} Unknown event types are refused with their positions.`,
    args: {
      id: t.arg.id({ required: true }),
      active: t.arg.boolean({ required: false }),
      eventTypes: t.arg.stringList({ required: false }),
      description: t.arg.string({ required: false }),
    },
    resolve: (_root, args, context) => update(context, args.id, args),
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
      webhookDeliveryView(
        await redeliverWebhook(
          context.em,
          requirePrincipal(context).accountId,
          args.endpointId,
          args.deliveryId,
        ),
      ),
  }),
);
