import { attributedProvenance } from '../../src/domains/partners/index.ts';
import { CHECKOUT_UI_MODES, type CheckoutView, createCheckout } from '../../src/domains/payments/index.ts';

/** For the REST facade, which shows a checkout without a custom amount's null `packageId`. */
export { checkoutBody } from '../../src/domains/payments/index.ts';

import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';

export const CheckoutUiModeEnum = enumFromList('CheckoutUiMode', CHECKOUT_UI_MODES, {
  description: 'How the payer sees the checkout.',
  valueDescriptions: {
    hosted: 'A payment page of its own: send the payer to `url`.',
    embedded: 'Mounted in your page with `clientSecret` and `publishableKey`.',
  },
});

const checkoutFields = {
  publishableKey: 'The payment processor key a page mounting the checkout uses.',
  packageId: 'The bundle bought; null for a custom amount.',
};

const HostedCheckoutRef = builder.objectRef<CheckoutView>('HostedCreditCheckout').implement({
  description: 'A hosted checkout: send the payer to `url`; credits arrive when the payment is confirmed.',
  isTypeOf: (value) => (value as CheckoutView).uiMode === 'hosted',
  fields: (t) => ({
    uiMode: t.expose('uiMode', { type: CheckoutUiModeEnum, description: 'Always HOSTED here.' }),
    url: t.string({ description: 'The payment page.', resolve: (c) => c.url ?? '' }),
    sessionId: t.exposeString('sessionId', {
      description: 'The checkout session; its ledger entry will carry ref `checkout:<sessionId>`.',
    }),
    publishableKey: t.exposeString('publishableKey', { description: checkoutFields.publishableKey }),
    amount: t.exposeInt('amount', { description: 'The price in cents.' }),
    currency: t.exposeString('currency', { description: 'ISO 4217, upper case.' }),
    credits: t.exposeInt('credits', { description: 'Credits granted once paid.' }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      description: 'After this the page no longer takes payment.',
    }),
    packageId: t.exposeID('packageId', { nullable: true, description: checkoutFields.packageId }),
  }),
});

const EmbeddedCheckoutRef = builder.objectRef<CheckoutView>('EmbeddedCreditCheckout').implement({
  description: 'An embedded checkout: mount it in your page with `clientSecret` and `publishableKey`.',
  isTypeOf: (value) => (value as CheckoutView).uiMode === 'embedded',
  fields: (t) => ({
    uiMode: t.expose('uiMode', { type: CheckoutUiModeEnum, description: 'Always EMBEDDED here.' }),
    clientSecret: t.string({
      description: 'Mounts this checkout (treat as a secret).',
      resolve: (c) => c.clientSecret ?? '',
    }),
    publishableKey: t.exposeString('publishableKey', { description: checkoutFields.publishableKey }),
    packageId: t.exposeID('packageId', { nullable: true, description: checkoutFields.packageId }),
  }),
});

const CreditCheckoutRef = builder.unionType('CreditCheckout', {
  description: 'A checkout session to buy credits, hosted or embedded.',
  types: [HostedCheckoutRef, EmbeddedCheckoutRef],
  resolveType: (value) => (value.uiMode === 'hosted' ? HostedCheckoutRef : EmbeddedCheckoutRef),
});

builder.mutationField('createCreditCheckout', (t) =>
  t.field({
    type: CreditCheckoutRef,
    authScopes: MCP,
    description:
      'Opens a checkout for a bundle (`packageId`, which wins) or 1..1000 credits at 1 USD each. Creates no ' +
      'credits: they are granted, once, when the payment processor confirms the payment.',
    args: {
      credits: t.arg.int({ required: false, description: '1..1000 credits at 1 USD each.' }),
      packageId: t.arg.id({
        required: false,
        description: 'A bundle of the pricing (wins over credits).',
        validate: { maxLength: 50 },
      }),
      savePaymentMethod: t.arg.boolean({
        required: false,
        defaultValue: false,
        description: 'Save the card for auto-reload.',
      }),
      uiMode: t.arg({ type: CheckoutUiModeEnum, required: false, defaultValue: 'embedded' }),
      successPath: t.arg.string({
        required: false,
        description:
          'Where the payer returns: a path on this service, or an absolute URL on its origin (scheme, host and port).',
        validate: { maxLength: 2000 },
      }),
      provenance: t.arg.string({
        required: false,
        description: 'A partner tag attributing the purchase.',
        validate: { maxLength: 100 },
      }),
    },
    resolve: async (_root, args, context) => {
      const principal = requirePrincipal(context);
      const provenance = await attributedProvenance(context.em, {
        token: principal.provenance,
        sent: args.provenance,
        sentAs: context.channel === 'agent_tool' ? 'argument' : 'header',
        origin: context.client.origin,
        referer: context.client.referer,
      });
      return createCheckout(
        context.em,
        context.app.payments,
        context.app.config.PUBLIC_URL,
        principal.accountId,
        {
          credits: args.credits ?? null,
          packageId: args.packageId ?? null,
          savePaymentMethod: args.savePaymentMethod ?? false,
          uiMode: args.uiMode ?? 'embedded',
          successPath: args.successPath ?? null,
          provenance,
        },
      );
    },
  }),
);
