import { checkoutLinkFor, type describeBundle, pricing } from '../../src/domains/credits/index.ts';
import { builder, PUBLIC } from '../builder.ts';

type Pricing = ReturnType<typeof pricing>;
type BundleView = ReturnType<typeof describeBundle>;

const PerCreditRef = builder.objectRef<Pricing['perCredit']>('PricePerCredit').implement({
  description: 'The price of one credit.',
  fields: (t) => ({ usd: t.exposeFloat('usd'), cents: t.exposeInt('cents') }),
});

const PerSongRef = builder.objectRef<Pricing['perSong']>('PricePerSong').implement({
  description: 'Credits charged per song at submission.',
  fields: (t) => ({
    human: t.exposeInt('human'),
    ai: t.exposeInt('ai'),
    aiSurcharge: t.exposeInt('aiSurcharge'),
  }),
});

const TokenOffsetRef = builder.objectRef<Pricing['tokenOffset']>('TokenOffsetPrice').implement({
  description: 'The optional token offset and its price.',
  fields: (t) => ({
    credits: t.exposeInt('credits'),
    costUsd: t.exposeFloat('costUsd'),
    optional: t.exposeBoolean('optional'),
  }),
});

type CheckoutLink = ReturnType<typeof checkoutLinkFor>;

const CheckoutRestBodyRef = builder.objectRef<CheckoutLink['body']>('CheckoutRestBody').implement({
  description:
    'The body of `POST /v1/credits/checkout` that buys one bundle, in the REST field names (snake_case, as sent).',
  fields: (t) => ({
    package_id: t.exposeID('package_id', { description: 'The bundle to buy.' }),
  }),
});

const CheckoutToolArgumentsRef = builder
  .objectRef<CheckoutLink['agentArguments']>('CheckoutToolArguments')
  .implement({
    description: 'The arguments of `create_credit_checkout_session` that buy one bundle.',
    fields: (t) => ({
      packageId: t.exposeID('packageId', { description: 'The bundle to buy.' }),
    }),
  });

const CheckoutLinkRef = builder.objectRef<CheckoutLink>('CheckoutLink').implement({
  description: 'A ready-made request that opens a checkout (REST, or the agent tool).',
  fields: (t) => ({
    method: t.exposeString('method', { description: 'The REST method, POST.' }),
    path: t.exposeString('path', { description: 'The REST path, /v1/credits/checkout.' }),
    body: t.field({
      type: CheckoutRestBodyRef,
      description: 'The REST body to send; add `ui_mode` and `success_path` as needed.',
      resolve: (l) => l.body,
    }),
    agentTool: t.exposeString('agentTool', { description: 'The agent tool that does the same.' }),
    agentArguments: t.field({
      type: CheckoutToolArgumentsRef,
      description: "The tool's arguments; add `uiMode` and `successPath` as needed.",
      resolve: (l) => l.agentArguments,
    }),
  }),
});

export const BundleRef = builder.objectRef<BundleView>('CreditBundle').implement({
  description: 'A bundle of credits on sale.',
  fields: (t) => ({
    packageId: t.exposeID('packageId'),
    credits: t.exposeInt('credits'),
    priceUsd: t.exposeFloat('priceUsd'),
    perCreditUsd: t.exposeFloat('perCreditUsd'),
    discountPercent: t.exposeInt('discountPercent'),
    savingsUsd: t.exposeFloat('savingsUsd'),
    tag: t.exposeString('tag', { nullable: true }),
    checkout: t.field({
      type: CheckoutLinkRef,
      description: 'How to buy this bundle: add `ui_mode` and `success_path` as needed.',
      resolve: (bundle) => checkoutLinkFor(bundle.packageId),
    }),
  }),
});

const McpAccessRef = builder.objectRef<Pricing['autoReload']['mcp']>('AutoReloadAgentAccess').implement({
  description: 'What an agent token may do with auto-reload.',
  fields: (t) => ({ read: t.exposeBoolean('read'), configure: t.exposeBoolean('configure') }),
});

const AutoReloadRef = builder.objectRef<Pricing['autoReload']>('AutoReloadAvailability').implement({
  description: 'Whether credits can top themselves up, and what it needs.',
  fields: (t) => ({
    available: t.exposeBoolean('available'),
    requiresSavedCard: t.exposeBoolean('requiresSavedCard'),
    mcp: t.field({ type: McpAccessRef, resolve: (a) => a.mcp }),
  }),
});

const PricingRef = builder.objectRef<Pricing>('Pricing').implement({
  description: '1 credit = 1 USD; credits never expire.',
  fields: (t) => ({
    currency: t.exposeString('currency'),
    perCredit: t.field({ type: PerCreditRef, resolve: (p) => p.perCredit }),
    perSong: t.field({ type: PerSongRef, resolve: (p) => p.perSong }),
    tokenOffset: t.field({ type: TokenOffsetRef, resolve: (p) => p.tokenOffset }),
    bundles: t.field({ type: [BundleRef], resolve: (p) => p.bundles }),
    autoReload: t.field({ type: AutoReloadRef, resolve: (p) => p.autoReload }),
    creditsNeverExpire: t.exposeBoolean('creditsNeverExpire'),
  }),
});

builder.queryField('pricing', (t) =>
  t.field({
    type: PricingRef,
    authScopes: PUBLIC,
    description: 'What credits and songs cost; public.',
    resolve: () => pricing(),
  }),
);
