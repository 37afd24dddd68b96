export { type AutoReloadView, MAX_THRESHOLD_CREDITS, readAutoReload, setAutoReload } from './auto-reload.ts';
export { AUTO_RELOAD_DAILY_CAP, runAutoReload } from './auto-reload-job.ts';
export { AUTO_RELOAD_STATUSES } from './auto-reload-setting.entity.ts';
export { CHECKOUT_STATUSES, CHECKOUT_UI_MODES, type CheckoutSession } from './checkout-session.entity.ts';
export { type CheckoutView, checkoutBody, createCheckout } from './create-checkout.ts';
export { type EventOutcome, handlePaymentEvent, PAYMENT_EVENT_RESULTS } from './handle-event.ts';
export type { PaymentsPort } from './port.ts';
export {
  declineSandboxCheckout,
  findSandboxCheckout,
  findSandboxCheckoutBySecret,
  paySandboxCheckout,
  type SandboxPayResult,
} from './sandbox-checkout.ts';
export { createSandboxPayments } from './sandbox-payments.ts';
export { createStripePayments } from './stripe-payments.ts';
