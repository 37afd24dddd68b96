import {
  AUTO_RELOAD_STATUSES,
  type AutoReloadView,
  MAX_THRESHOLD_CREDITS,
  readAutoReload,
  setAutoReload,
} from '../../src/domains/payments/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';

const AutoReloadStatusEnum = enumFromList('AutoReloadStatus', AUTO_RELOAD_STATUSES, {
  description: 'How the last auto-reload ended.',
  valueDescriptions: {
    succeeded: 'The card was charged and the credits added.',
    declined: 'The card was declined; auto-reload was disabled.',
    authentication_required: 'The card needs its holder to authenticate; auto-reload was disabled.',
    daily_cap_reached: 'The daily cap of reloads was reached; the next reload waits.',
    failed: 'The payment processor failed, or the saved card is gone.',
  },
});

const SavedCardRef = builder.objectRef<NonNullable<AutoReloadView['card']>>('SavedCard').implement({
  description: 'A card saved for off-session charges (never its number).',
  fields: (t) => ({
    brand: t.exposeString('brand', { description: 'e.g. visa.' }),
    last4: t.exposeString('last4', { description: 'The last four digits.' }),
    expMonth: t.exposeInt('expMonth', { description: 'Expiry month, 1..12.' }),
    expYear: t.exposeInt('expYear', { description: 'Expiry year.' }),
  }),
});

const AutoReloadRef = builder.objectRef<AutoReloadView>('AutoReload').implement({
  description:
    'Auto-reload: when a debit leaves the balance at or below the threshold, the saved card is charged for the reload.',
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', { description: 'Whether reloads happen.' }),
    configured: t.exposeBoolean('configured', { description: 'Whether it was ever set up.' }),
    thresholdCredits: t.exposeInt('thresholdCredits', {
      description: 'Reload when a debit leaves the balance at or below this (0 = when empty).',
    }),
    packageId: t.exposeID('packageId', { nullable: true, description: 'The bundle reloaded, if one.' }),
    reloadCredits: t.exposeInt('reloadCredits', { nullable: true, description: 'Credits one reload adds.' }),
    reloadAmountCents: t.exposeInt('reloadAmountCents', {
      nullable: true,
      description: 'What one reload costs, in cents.',
    }),
    card: t.field({
      type: SavedCardRef,
      nullable: true,
      description: 'The card charged.',
      resolve: (a) => a.card,
    }),
    lastStatus: t.field({
      type: AutoReloadStatusEnum,
      nullable: true,
      description: 'How the last reload ended.',
      resolve: (a) => a.lastStatus,
    }),
    lastReason: t.exposeString('lastReason', {
      nullable: true,
      description: 'Why the last reload did not succeed (e.g. why auto-reload was disabled).',
    }),
    lastTriggeredAt: t.expose('lastTriggeredAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the last reload ran.',
    }),
  }),
});

builder.queryField('autoReload', (t) =>
  t.field({
    type: AutoReloadRef,
    authScopes: MCP,
    description: 'The auto-reload settings and the outcome of the last reload.',
    resolve: (_root, _args, context) => readAutoReload(context.em, requirePrincipal(context).accountId),
  }),
);

builder.mutationField('setAutoReload', (t) =>
  t.field({
    type: AutoReloadRef,
    authScopes: MCP,
    description:
      'Sets auto-reload. Enabling needs a saved card (buy once with savePaymentMethod: true); the reload is a ' +
      'bundle (packageId, which wins) or quantity credits at 1 USD each (first default: the smallest bundle).',
    args: {
      enabled: t.arg.boolean({ required: true, description: 'Turn reloads on or off.' }),
      packageId: t.arg.id({
        required: false,
        description: 'A bundle to reload (wins over quantity).',
        validate: { maxLength: 50 },
      }),
      quantity: t.arg.int({ required: false, description: 'Custom reload, 1..1000 credits at 1 USD each.' }),
      paymentMethodId: t.arg.string({
        required: false,
        description: 'A saved card; omitted, the most recently saved one.',
        validate: { maxLength: 255 },
      }),
      thresholdCredits: t.arg.int({
        required: false,
        description: `Reload at or below this balance, 0..${MAX_THRESHOLD_CREDITS} (default 0: when empty).`,
      }),
    },
    resolve: (_root, args, context) =>
      setAutoReload(context.em, requirePrincipal(context).accountId, {
        enabled: args.enabled,
        packageId: args.packageId ?? null,
        quantity: args.quantity ?? null,
        paymentMethodId: args.paymentMethodId ?? null,
        thresholdCredits: args.thresholdCredits ?? null,
      }),
  }),
);
