import express, { type Request, type Response, Router } from 'express';
import { prepareOperation } from '../../schema/execute.ts';
import type { AppServices } from '../../schema/services.ts';
import { routeHandler } from '../route-handler.ts';
import { runOrAnswer } from '../run-operation.ts';
import { pageHeaders } from '../security-headers.ts';
import {
  checkoutCompletePage,
  embeddedPage,
  hostedPage,
  resultPage,
  type SandboxCheckoutView,
} from './sandbox-pages.ts';

/** Payment events are small; a larger body is not one. */
const EVENT_BODY_LIMIT = '256kb';
const SANDBOX_FIELDS = 'sessionId status credits amountCents currency packageId savePaymentMethod';

function paymentOperations() {
  return {
    event: prepareOperation(`mutation ApplyPaymentEvent($payload: String!, $signature: String) {
      outcome: applyPaymentEventWire(payload: $payload, signature: $signature) { eventId type result credits } }`),
    checkout: prepareOperation(`query SandboxCheckout($sessionId: String, $clientSecret: String) {
      checkout: sandboxCheckoutWire(sessionId: $sessionId, clientSecret: $clientSecret) { ${SANDBOX_FIELDS} } }`),
    pay: prepareOperation(`mutation PaySandboxCheckout($sessionId: String!, $cardNumber: String!, $saveCard: Boolean) {
      payment: paySandboxCheckoutWire(sessionId: $sessionId, cardNumber: $cardNumber, saveCard: $saveCard) {
        paid reason returnUrl } }`),
    decline: prepareOperation(`mutation DeclineSandboxCheckout($sessionId: String!) {
      checkout: declineSandboxCheckoutWire(sessionId: $sessionId) { ${SANDBOX_FIELDS} } }`),
  };
}

/** Every path the payment routes answer lies under one of these. */
export const PAYMENT_PATH_PREFIXES = ['/v1/payments', '/checkout', '/sandbox'] as const;

/**
 * The payment processor's side of the service: POST /v1/payments/stripe/events (the raw body, since the
 * signature covers its exact bytes), the return page, and with the sandbox adapter its checkout pages.
 */
export function createPaymentRoutes(app: AppServices): Router {
  const router = Router();
  const operations = paymentOperations();
  // The processor and the payer are anonymous: the session id, the secret or the signature is the proof.
  const run = (res: Response, name: keyof typeof operations, variables: Record<string, unknown>) =>
    runOrAnswer(app, res, operations[name], null, variables);

  router.post(
    '/v1/payments/stripe/events',
    express.raw({ type: () => true, limit: EVENT_BODY_LIMIT }),
    routeHandler(async (req: Request, res: Response) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const data = await run(res, 'event', {
        payload: body.toString('utf8'),
        signature: req.header('stripe-signature') ?? null,
      });
      if (data) res.json({ received: true, ...(data.outcome as object) });
    }),
  );
  router.get('/checkout/complete', (_req: Request, res: Response) => {
    page(res, checkoutCompletePage());
  });
  if (app.payments.provider !== 'sandbox') return router;

  router.get(
    '/sandbox/checkout/:id',
    routeHandler(async (req: Request, res: Response) => {
      const data = await run(res, 'checkout', { sessionId: String(req.params.id) });
      if (data) page(res, hostedPage(data.checkout as SandboxCheckoutView));
    }),
  );
  router.get(
    '/sandbox/embedded',
    routeHandler(async (req: Request, res: Response) => {
      const secret = typeof req.query.client_secret === 'string' ? req.query.client_secret : '';
      const data = await run(res, 'checkout', { clientSecret: secret });
      if (data) page(res, embeddedPage(data.checkout as SandboxCheckoutView));
    }),
  );
  const form = express.urlencoded({ extended: false, limit: '4kb' });
  router.post(
    '/sandbox/checkout/:id/pay',
    form,
    routeHandler(async (req: Request, res: Response) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const data = await run(res, 'pay', {
        sessionId: String(req.params.id),
        cardNumber: String(body.card_number ?? ''),
        saveCard: body.save_card === 'on',
      });
      if (!data) return;
      const payment = data.payment as { paid: boolean; reason: string | null; returnUrl: string | null };
      if (!payment.paid || !payment.returnUrl) {
        page(res.status(402), resultPage('Payment declined', payment.reason ?? 'The card was declined.'));
        return;
      }
      res.redirect(303, payment.returnUrl);
    }),
  );
  router.post(
    '/sandbox/checkout/:id/decline',
    routeHandler(async (req: Request, res: Response) => {
      const data = await run(res, 'decline', { sessionId: String(req.params.id) });
      if (data) page(res, resultPage('Payment declined', 'Nothing was charged and no credits were added.'));
    }),
  );
  return router;
}

function page(res: Response, html: string): void {
  res.setHeader('Cache-Control', 'no-store');
  // The embedded checkout frames the checkout page, so our own origin may frame these pages.
  res.set(
    pageHeaders(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-src 'self'; base-uri 'none'; frame-ancestors 'self'",
      'SAMEORIGIN',
    ),
  );
  res.type('html').send(html);
}
