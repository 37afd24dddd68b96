import {
  DEFAULT_ROTATION_GRACE_SECONDS,
  endpointView,
  MAX_ROTATION_GRACE_SECONDS,
  rotateEndpointSecret,
  type WebhookEndpointView,
} from '../../src/domains/webhooks/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { WebhookEndpointRef } from './types.ts';

const days = (seconds: number) => `${seconds / 86_400} day${seconds === 86_400 ? '' : 's'}`;

const RotatedSecretRef = builder
  .objectRef<{ endpoint: WebhookEndpointView; signingSecret: string }>('RotatedWebhookSecret')
  .implement({
    description: 'An endpoint with its new signing secret, shown this once.',
    fields: (t) => ({
      endpoint: t.field({
        type: WebhookEndpointRef,
        description: 'The endpoint, which tells when the replaced secret stops signing.',
        resolve: (rotated) => rotated.endpoint,
      }),
      signingSecret: t.exposeString('signingSecret', {
        description: 'The new secret, shown this once: store it to verify deliveries.',
      }),
    }),
  });

builder.mutationField('rotateWebhookSecret', (t) =>
  t.field({
    type: RotatedSecretRef,
    authScopes: MCP,
    description:
      'Gives one of your endpoints a new signing secret. For the grace window after it, every delivery is signed ' +
      'by the new and the replaced secret (webhook-signature carries both; the x-svc-signature headers stay ' +
      "the replaced secret's until the window ends). A rotation inside a window replaces the older secret.",
    args: {
      id: t.arg.id({ required: true, description: 'The endpoint whose secret to rotate.' }),
      graceSeconds: t.arg.int({
        required: false,
        defaultValue: DEFAULT_ROTATION_GRACE_SECONDS,
        description:
          `Seconds the replaced secret keeps signing: 0 (none) to ${MAX_ROTATION_GRACE_SECONDS} ` +
          `(${days(MAX_ROTATION_GRACE_SECONDS)}); ${DEFAULT_ROTATION_GRACE_SECONDS} ` +
          `(${days(DEFAULT_ROTATION_GRACE_SECONDS)}) by default.`,
        validate: { min: 0, max: MAX_ROTATION_GRACE_SECONDS },
      }),
    },
    resolve: async (_root, args, context) => {
      const { endpoint, secret } = await rotateEndpointSecret(
        context.em,
        requirePrincipal(context).accountId,
        args.id,
        {
          graceSeconds: args.graceSeconds ?? DEFAULT_ROTATION_GRACE_SECONDS,
          secretKey: context.app.webhookSecretKey,
          now: context.app.clock.now(),
        },
      );
      return { endpoint: endpointView(endpoint), signingSecret: secret };
    },
  }),
);
