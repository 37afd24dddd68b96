import type { Request, Response } from 'express';
import { FACTS, rangeText } from '../../../schema/facade-facts.ts';
import { checkoutBody } from '../../../schema/payments/checkout.ts';
import { AUTO_RELOAD_FIELDS, CHECKOUT_FIELDS } from '../../selections.ts';
import { bodyField, header, type RestRoute } from '../route.ts';

const TAG = 'Profile and credits';

/** Answers with the checkout as REST shows it (see `checkoutBody`), when that differs from `body`. */
function showCheckout(body: unknown, _req: Request, res: Response): boolean {
  const shown = checkoutBody(body);
  if (shown === body) return false;
  res.status(200).json(shown);
  return true;
}

export const creditRoutes: RestRoute[] = [
  {
    operationId: 'createCreditCheckout',
    method: 'POST',
    path: '/credits/checkout',
    summary: `Open a checkout for credits (${rangeText(FACTS.customCheckoutCredits)} at ${FACTS.creditPriceUsd} USD, or a package_id, which wins); credits are granted when the payment is confirmed`,
    tag: TAG,
    auth: 'bearer',
    document: /* GraphQL */ `
      mutation CreateCreditCheckout($credits: Int, $packageId: ID, $savePaymentMethod: Boolean,
        $uiMode: CheckoutUiMode, $successPath: String, $provenance: String) {
        checkout: createCreditCheckout(credits: $credits, packageId: $packageId,
          savePaymentMethod: $savePaymentMethod, uiMode: $uiMode, successPath: $successPath,
          provenance: $provenance) { ${CHECKOUT_FIELDS} }
      }
    `,
    variables: {
      credits: bodyField('credits'),
      packageId: bodyField('package_id'),
      savePaymentMethod: bodyField('save_payment_method'),
      uiMode: bodyField('ui_mode'),
      successPath: bodyField('success_path'),
      provenance: header('X-Svc-Provenance', 'A partner tag attributing the purchase.'),
    },
    select: 'checkout',
    render: showCheckout,
  },
  {
    operationId: 'getAutoReload',
    method: 'GET',
    path: '/me/autoreload',
    summary: 'Auto-reload settings, the saved card and how the last reload ended',
    tag: TAG,
    auth: 'bearer',
    document: /* GraphQL */ `query GetAutoReload { autoReload { ${AUTO_RELOAD_FIELDS} } }`,
    select: 'autoReload',
  },
  {
    operationId: 'setAutoReload',
    method: 'POST',
    path: '/me/autoreload',
    summary:
      'Set auto-reload: enabled (required), package_id or quantity (package wins), payment_method_id, threshold_credits (default 0); enabling needs a saved card',
    tag: TAG,
    auth: 'bearer',
    document: /* GraphQL */ `
      mutation SetAutoReload($enabled: Boolean!, $packageId: ID, $quantity: Int, $paymentMethodId: String,
        $thresholdCredits: Int) {
        autoReload: setAutoReload(enabled: $enabled, packageId: $packageId, quantity: $quantity,
          paymentMethodId: $paymentMethodId, thresholdCredits: $thresholdCredits) { ${AUTO_RELOAD_FIELDS} }
      }
    `,
    variables: {
      enabled: bodyField('enabled'),
      packageId: bodyField('package_id'),
      quantity: bodyField('quantity'),
      paymentMethodId: bodyField('payment_method_id'),
      thresholdCredits: bodyField('threshold_credits'),
    },
    select: 'autoReload',
  },
];
