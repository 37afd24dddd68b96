import {
  CHECKOUT_STATUSES,
  type CheckoutSession,
  declineSandboxCheckout,
  type EventOutcome,
  findSandboxCheckout,
  findSandboxCheckoutBySecret,
  handlePaymentEvent,
  PAYMENT_EVENT_RESULTS,
  paySandboxCheckout,
  type SandboxPayResult,
} from '../../src/domains/payments/index.ts';
import { forbidden, invalidRequest } from '../../src/platform/errors.ts';
import { builder, FACADE_ONLY, PUBLIC } from '../builder.ts';
import type { Context } from '../context.ts';
import { enumFromList } from '../enums.ts';

/*
 * Facade-only fields behind the payment processor's endpoints and the sandbox's checkout pages. They are
 * public: a payment event proves itself by its signature, and a sandbox page by its unguessable id.
 */

const CheckoutStatusEnum = enumFromList('CheckoutStatus', CHECKOUT_STATUSES, {
  description: 'Where a checkout session stands.',
});

const PaymentEventResultEnum = enumFromList('PaymentEventResult', PAYMENT_EVENT_RESULTS, {
  description: 'What a verified payment event did.',
  valueDescriptions: {
    credited: 'The payment was credited (once per payment).',
    duplicate: 'A later delivery of a payment already credited: nothing changed.',
    ignored: 'Not an event that moves credits.',
    expired: 'The checkout expired unpaid.',
  },
});

const PaymentEventOutcomeRef = builder.objectRef<EventOutcome>('PaymentEventOutcome').implement({
  description: 'What a verified payment event did.',
  fields: (t) => ({
    eventId: t.exposeString('eventId', { description: "The processor's event id." }),
    type: t.exposeString('type', { description: 'The event type, e.g. checkout.session.completed.' }),
    result: t.expose('result', { type: PaymentEventResultEnum, description: 'What the event did.' }),
    credits: t.int({
      nullable: true,
      description: 'Credits the payment bought.',
      resolve: (o) => o.credits ?? null,
    }),
  }),
});

const SandboxCheckoutRef = builder.objectRef<CheckoutSession>('SandboxCheckout').implement({
  description: 'A sandbox checkout as its payment page shows it.',
  fields: (t) => ({
    sessionId: t.exposeString('providerSessionId', { description: 'The checkout session id.' }),
    status: t.expose('status', {
      type: CheckoutStatusEnum,
      description: 'Open until paid, declined or expired.',
    }),
    credits: t.exposeInt('credits', { description: 'Credits it buys.' }),
    amountCents: t.exposeInt('amountCents', { description: 'The price in cents.' }),
    currency: t.exposeString('currency', { description: 'ISO 4217.' }),
    packageId: t.exposeID('packageId', { nullable: true, description: 'The bundle, if one.' }),
    savePaymentMethod: t.exposeBoolean('savePaymentMethod', { description: 'Whether the card is saved.' }),
  }),
});

const SandboxPaymentRef = builder.objectRef<SandboxPayResult>('SandboxPayment').implement({
  description: 'The outcome of paying a sandbox checkout.',
  fields: (t) => ({
    paid: t.exposeBoolean('paid', { description: 'False when the test card was declined.' }),
    reason: t.string({
      nullable: true,
      description: 'Why not paid.',
      resolve: (r) => (r.paid ? null : r.reason),
    }),
    returnUrl: t.string({
      nullable: true,
      description: 'Where the payer goes next.',
      resolve: (r) => (r.paid ? r.returnUrl : null),
    }),
  }),
});

function sandboxOnly(context: Context): void {
  if (context.app.payments.provider !== 'sandbox')
    throw forbidden('Sandbox checkout pages exist only with the sandbox payments adapter.', 'sandbox_only');
}

builder.mutationField('applyPaymentEventWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: PaymentEventOutcomeRef,
    authScopes: PUBLIC,
    description: 'Verifies a signed payment event (its raw body and Stripe-Signature) and applies it.',
    args: {
      payload: t.arg.string({ required: true }),
      signature: t.arg.string({ required: false }),
    },
    resolve: (_root, args, context) =>
      handlePaymentEvent(context.em, context.app.payments, args.payload, args.signature ?? undefined),
  }),
);

builder.queryField('sandboxCheckoutWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: SandboxCheckoutRef,
    authScopes: PUBLIC,
    description: 'A sandbox checkout by its session id, or by the client secret of an embedded one.',
    args: {
      sessionId: t.arg.string({ required: false, validate: { maxLength: 100 } }),
      clientSecret: t.arg.string({ required: false, validate: { maxLength: 200 } }),
    },
    resolve: (_root, args, context) => {
      sandboxOnly(context);
      if (args.clientSecret) return findSandboxCheckoutBySecret(context.em, args.clientSecret);
      if (args.sessionId) return findSandboxCheckout(context.em, args.sessionId);
      throw invalidRequest('A session id or client secret is required.');
    },
  }),
);

builder.mutationField('paySandboxCheckoutWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: SandboxPaymentRef,
    authScopes: PUBLIC,
    description: 'Pays a sandbox checkout with a test card, through the signed-event handler.',
    args: {
      sessionId: t.arg.string({ required: true, validate: { maxLength: 100 } }),
      cardNumber: t.arg.string({ required: true, validate: { maxLength: 30 } }),
      saveCard: t.arg.boolean({ required: false }),
    },
    resolve: (_root, args, context) => {
      sandboxOnly(context);
      return paySandboxCheckout(
        context.em,
        context.app.payments,
        context.app.config.PUBLIC_URL,
        args.sessionId,
        {
          cardNumber: args.cardNumber,
          saveCard: args.saveCard === true,
        },
      );
    },
  }),
);

builder.mutationField('declineSandboxCheckoutWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: SandboxCheckoutRef,
    authScopes: PUBLIC,
    description: 'Declines a sandbox checkout: nothing is charged or credited.',
    args: { sessionId: t.arg.string({ required: true, validate: { maxLength: 100 } }) },
    resolve: async (_root, args, context) => {
      sandboxOnly(context);
      await declineSandboxCheckout(context.em, args.sessionId);
      return findSandboxCheckout(context.em.fork(), args.sessionId);
    },
  }),
);
