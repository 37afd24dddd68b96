import { BuyCreditsDocument, type CreditsOverviewQuery } from '../../generated/graphql.ts';
import type { Api } from '../../lib/api.ts';
import { h } from '../../lib/dom.ts';
import { formatCount, formatUsd } from '../../lib/format.ts';

/** Where a checkout returns: this page, which then waits for the purchase in the ledger (return.ts). */
export const RETURN_PATH = '/dashboard/credits?checkout=returned';
/** The checkout the payer left for: read back on return. */
export const PENDING_CHECKOUT_KEY = 'tributary.dashboard.checkout';

export interface PendingCheckout {
  sessionId: string;
  credits: number;
}

type Bundle = CreditsOverviewQuery['pricing']['bundles'][number];

const bundleLabel = (bundle: Bundle) =>
  `${formatCount(bundle.credits)} credits for ${formatUsd(bundle.priceUsd)}` +
  (bundle.discountPercent > 0 ? ` (${bundle.discountPercent}% off)` : '') +
  (bundle.tag ? ` · ${bundle.tag.replace(/_/g, ' ')}` : '');

/**
 * "Buy credits": a bundle, then the payment processor's hosted checkout (the sandbox's pages without
 * STRIPE_SECRET_KEY), which returns here. The credits arrive when the processor confirms the payment.
 */
export function buySection(api: Api, bundles: Bundle[], onError: (error: unknown) => void): HTMLElement {
  const choices = bundles.map((bundle, index) =>
    h(
      'label',
      { class: 'check' },
      h('input', {
        type: 'radio',
        name: 'packageId',
        value: bundle.packageId,
        'data-credits': bundle.credits,
        checked: index === 0,
        required: true,
      }),
      bundleLabel(bundle),
    ),
  );
  const button = h('button', { type: 'submit' }, 'Buy credits');
  const form = h(
    'form',
    { class: 'stack', id: 'buy' },
    h('fieldset', {}, h('legend', {}, 'Bundle'), choices),
    h('div', { class: 'actions' }, button),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = form.querySelector<HTMLInputElement>('input[name=packageId]:checked');
    if (!chosen) return;
    button.disabled = true;
    api
      .mutate(BuyCreditsDocument, { packageId: chosen.value, successPath: RETURN_PATH })
      .then(({ createCreditCheckout: checkout }) => {
        if (!('url' in checkout)) throw new Error('The service opened no hosted checkout.');
        const pending: PendingCheckout = {
          sessionId: checkout.sessionId,
          credits: Number(chosen.dataset.credits),
        };
        sessionStorage.setItem(PENDING_CHECKOUT_KEY, JSON.stringify(pending));
        location.assign(checkout.url);
      })
      .catch((error: unknown) => {
        button.disabled = false;
        onError(error);
      });
  });
  return h(
    'section',
    { 'aria-labelledby': 'buy-heading' },
    h('h2', { id: 'buy-heading' }, 'Buy credits'),
    h('p', { class: 'muted' }, 'Credits never expire. You pay on the payment page, then come back here.'),
    form,
  );
}
