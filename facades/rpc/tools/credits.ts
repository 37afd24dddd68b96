import { z } from 'zod';
import { FACTS, rangeText } from '../../../schema/facade-facts.ts';
import { AUTO_RELOAD_FIELDS, CHECKOUT_FIELDS } from '../../selections.ts';
import { defineTool, READ_ONLY, type ToolRow } from '../tool.ts';

const USD = FACTS.creditPriceUsd;
const CUSTOM = rangeText(FACTS.customCheckoutCredits);
const customCredits = z.int().min(FACTS.customCheckoutCredits.min).max(FACTS.customCheckoutCredits.max);

export const creditTools: ToolRow[] = [
  defineTool({
    name: 'create_credit_checkout_session',
    title: 'Buy credits',
    description:
      `Opens a checkout to buy credits: a bundle (packageId from get_pricing, which wins) or credits ${CUSTOM} at ` +
      `${USD} USD each. uiMode hosted returns {uiMode, url, sessionId, publishableKey, amount (cents), currency, credits, ` +
      'expiresAt}: give the url to the user to pay; embedded returns {clientSecret, publishableKey, uiMode}. ' +
      'packageId is included for bundles. Credits arrive once the payment is confirmed (get_credits shows them); ' +
      'savePaymentMethod: true saves the card for auto-reload.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    args: z.object({
      credits: customCredits.optional().describe(`Credits to buy at ${USD} USD each (${CUSTOM}).`),
      packageId: z.string().max(50).optional().describe('A bundle from get_pricing; wins over credits.'),
      savePaymentMethod: z.boolean().default(false).describe('Save the card for auto-reload.'),
      uiMode: z.enum(['hosted', 'embedded']).default('embedded').describe('hosted: a payment page URL.'),
      successPath: z
        .string()
        .max(2000)
        .optional()
        .describe("Where the payer returns: a path, or an absolute URL on this service's origin."),
      provenance: z.string().max(100).optional().describe('Server-to-server agents: the partner tag.'),
    }),
    document: /* GraphQL */ `
      mutation AgentCreateCreditCheckout($credits: Int, $packageId: ID, $savePaymentMethod: Boolean,
        $uiMode: CheckoutUiMode, $successPath: String, $provenance: String) {
        checkout: createCreditCheckout(credits: $credits, packageId: $packageId,
          savePaymentMethod: $savePaymentMethod, uiMode: $uiMode, successPath: $successPath,
          provenance: $provenance) { ${CHECKOUT_FIELDS} }
      }
    `,
    variables: (args) => ({
      credits: args.credits,
      packageId: args.packageId,
      savePaymentMethod: args.savePaymentMethod,
      uiMode: args.uiMode,
      successPath: args.successPath,
      provenance: args.provenance,
    }),
    select: 'checkout',
    aliases: ['buy_credits', 'create_checkout', 'purchase_credits'],
  }),
  defineTool({
    name: 'get_autoreload',
    title: 'Get auto-reload',
    description:
      'Auto-reload settings: {enabled, configured, thresholdCredits, packageId, reloadCredits, reloadAmountCents, ' +
      'card {brand, last4, expMonth, expYear}, lastStatus, lastReason, lastTriggeredAt}.',
    annotations: READ_ONLY,
    args: z.object({}),
    document: /* GraphQL */ `query AgentGetAutoReload { autoReload { ${AUTO_RELOAD_FIELDS} } }`,
    select: 'autoReload',
    aliases: ['autoreload', 'get_auto_reload'],
  }),
  defineTool({
    name: 'set_autoreload',
    title: 'Set auto-reload',
    description:
      'Turns auto-reload on or off. When a submission leaves the balance at or below thresholdCredits (default 0), ' +
      `the saved card is charged for the reload: packageId (wins) or quantity credits at ${USD} USD each. Enabling ` +
      `needs a saved card: buy once with create_credit_checkout_session savePaymentMethod: true. At most ${FACTS.autoReloadsPerDay} ` +
      `reloads a day. Returns the settings as get_autoreload.`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    args: z.object({
      enabled: z.boolean().describe('Turn reloads on or off.'),
      packageId: z.string().max(50).optional().describe('A bundle from get_pricing; wins over quantity.'),
      quantity: customCredits.optional().describe(`Custom reload, credits at ${USD} USD each.`),
      paymentMethodId: z.string().max(255).optional().describe('A saved card; omitted, the latest saved.'),
      thresholdCredits: z
        .int()
        .min(0)
        .max(FACTS.maxThresholdCredits)
        .optional()
        .describe('Reload at or below this balance.'),
    }),
    document: /* GraphQL */ `
      mutation AgentSetAutoReload($enabled: Boolean!, $packageId: ID, $quantity: Int, $paymentMethodId: String,
        $thresholdCredits: Int) {
        autoReload: setAutoReload(enabled: $enabled, packageId: $packageId, quantity: $quantity,
          paymentMethodId: $paymentMethodId, thresholdCredits: $thresholdCredits) { ${AUTO_RELOAD_FIELDS} }
      }
    `,
    variables: (args) => ({
      enabled: args.enabled,
      packageId: args.packageId,
      quantity: args.quantity,
      paymentMethodId: args.paymentMethodId,
      thresholdCredits: args.thresholdCredits,
    }),
    select: 'autoReload',
    aliases: ['set_auto_reload', 'configure_autoreload'],
  }),
];
