/** A `checkout.session.completed` event as the processor sends it for a paid checkout (Stripe's format). */
export function completionEvent(sessionId: string, amountTotal: number): string {
  return JSON.stringify({
    id: `evt_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        payment_status: 'paid',
        amount_total: amountTotal,
      },
    },
  });
}
