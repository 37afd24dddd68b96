/** A sandbox checkout as sandboxCheckoutWire answers it. */
export interface SandboxCheckoutView {
  sessionId: string;
  status: string;
  credits: number;
  amountCents: number;
  currency: string;
  packageId: string | null;
  savePaymentMethod: boolean;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
button{font-size:1rem;padding:.5rem 1rem;margin-right:.5rem}label{display:block;margin:.75rem 0}
input[type=text]{font-size:1rem;width:100%;padding:.4rem}.note{color:#555;font-size:.9rem}</style>
</head><body>${body}</body></html>`;

const price = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${escapeHtml(currency)}`;

/** The sandbox's hosted checkout page: the amount, a test card, Pay and Decline. */
export function hostedPage(checkout: SandboxCheckoutView): string {
  const id = encodeURIComponent(checkout.sessionId);
  const what = checkout.packageId
    ? `${checkout.credits} credits (${escapeHtml(checkout.packageId)})`
    : `${checkout.credits} credits`;
  if (checkout.status !== 'open')
    return layout(
      'Checkout',
      `<h1>Checkout</h1><p id="status">This checkout is ${escapeHtml(checkout.status)}.</p>`,
    );
  return layout(
    'Sandbox checkout',
    `<h1>Sandbox checkout</h1>
<p>Buy <strong id="credits">${what}</strong> for <strong id="amount">${price(checkout.amountCents, checkout.currency)}</strong>.</p>
<p class="note">Sandbox: no money moves. Test cards: 4242 4242 4242 4242 pays; 4000 0027 6000 3184 pays now but
needs authentication off-session; 4000 0000 0000 0002 is declined.</p>
<form method="post" action="/sandbox/checkout/${id}/pay">
<label>Card number <input type="text" name="card_number" value="4242 4242 4242 4242" autocomplete="off"></label>
<label><input type="checkbox" name="save_card"${checkout.savePaymentMethod ? ' checked' : ''}> Save this card for auto-reload</label>
<button type="submit" id="pay">Pay ${price(checkout.amountCents, checkout.currency)}</button>
</form>
<form method="post" action="/sandbox/checkout/${id}/decline"><button type="submit" id="decline">Decline</button></form>`,
  );
}

/** What an embedded checkout mounts: the sandbox page in a frame (Stripe.js would mount its own). */
export function embeddedPage(checkout: SandboxCheckoutView): string {
  const id = encodeURIComponent(checkout.sessionId);
  return layout(
    'Embedded checkout',
    `<h1>Embedded checkout</h1><iframe id="checkout" title="Checkout" src="/sandbox/checkout/${id}" style="width:100%;height:28rem;border:1px solid #ccc"></iframe>`,
  );
}

export function resultPage(title: string, message: string): string {
  return layout(title, `<h1 id="result">${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

/** Where a payer lands after paying when the checkout named no success_path. */
export function checkoutCompletePage(): string {
  return resultPage(
    'Payment received',
    'Your credits are added as soon as the payment is confirmed; GET /v1/me/credits shows them.',
  );
}
