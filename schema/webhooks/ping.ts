import { pingEndpoint, webhookDeliveryView } from '../../src/domains/webhooks/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { WebhookDeliveryRef } from './types.ts';

builder.mutationField('pingWebhookEndpoint', (t) =>
  t.field({
    type: WebhookDeliveryRef,
    authScopes: MCP,
    description:
      'Sends a signed test event (type PING) to one of your endpoints now, also when it is disabled, and ' +
      'answers with its delivery: status, response code, latency, error. One attempt, no retry; it shows in ' +
      'the delivery log and does not change the failure count.',
    args: { id: t.arg.id({ required: true, description: 'The endpoint to ping.' }) },
    resolve: async (_root, args, context) =>
      webhookDeliveryView(
        await pingEndpoint(context.em, requirePrincipal(context).accountId, args.id, {
          outbound: context.app.webhookOutbound,
          secretKey: context.app.webhookSecretKey,
          timeoutSeconds: context.app.config.WEBHOOK_TIMEOUT_SECONDS,
          clock: context.app.clock,
        }),
      ),
  }),
);
