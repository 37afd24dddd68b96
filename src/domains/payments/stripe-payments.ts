import Stripe from 'stripe';
import { AppError } from '../../platform/errors.ts';
import type { OffSessionResult, PaymentsPort } from './port.ts';
import { cardOfIntent } from './sandbox-payments.ts';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  publishableKey: string;
  /** Another API base (tests: a loopback server speaking Stripe's HTTP API). */
  apiBase?: string | undefined;
}

/** The SDK's host/port/protocol from an API base URL such as `http://127.0.0.1:12111`. */
function endpointOf(apiBase: string | undefined) {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol: protocol as 'http' | 'https',
  };
}

/** A Stripe refusal or outage as the platform's upstream error (502), with Stripe's own message. */
async function upstream<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      throw new AppError(
        'upstream_error',
        'payment_provider_error',
        `The payment processor refused: ${error.message}`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

/**
 * Stripe Checkout behind the payments port: a Customer per account, Checkout Sessions in hosted or
 * embedded UI mode (`hosted_page` / `embedded_page`), off-session PaymentIntents for auto-reload. Every
 * create call carries an idempotency key derived from our own row, which the SDK keeps across its retries.
 */
export function createStripePayments(settings: StripeSettings): PaymentsPort {
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...endpointOf(settings.apiBase),
  });
  return {
    provider: 'stripe',
    publishableKey: settings.publishableKey,
    webhookSecret: settings.webhookSecret,
    createCustomer: async (accountId, email) => {
      const customer = await upstream(() =>
        stripe.customers.create(
          { email, metadata: { account_id: accountId } },
          { idempotencyKey: `customer:${accountId}` },
        ),
      );
      return customer.id;
    },
    openCheckout: async (request, customerId) => {
      const metadata = { account_id: request.accountId, checkout_id: request.checkoutId };
      const returnUrl = `${request.returnUrl}${request.returnUrl.includes('?') ? '&' : '?'}checkout_session={CHECKOUT_SESSION_ID}`;
      const session = await upstream(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            ui_mode: request.uiMode === 'hosted' ? 'hosted_page' : 'embedded_page',
            ...(customerId ? { customer: customerId } : { customer_email: request.email }),
            client_reference_id: request.accountId,
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: request.currency.toLowerCase(),
                  unit_amount: request.amountCents,
                  product_data: {
                    name: request.packageId
                      ? `${request.credits} credits (${request.packageId})`
                      : `${request.credits} credits`,
                  },
                },
              },
            ],
            payment_intent_data: {
              metadata,
              ...(request.savePaymentMethod ? { setup_future_usage: 'off_session' as const } : {}),
            },
            metadata,
            ...(request.uiMode === 'hosted' ? { success_url: returnUrl } : { return_url: returnUrl }),
          },
          { idempotencyKey: `checkout:${request.checkoutId}` },
        ),
      );
      return {
        providerSessionId: session.id,
        url: session.url ?? null,
        clientSecret: session.client_secret ?? null,
        clientSecretHash: null,
        expiresAt: new Date(session.expires_at * 1000),
      };
    },
    savedCardOf: async (session) => {
      const intent = session.payment_intent;
      if (!intent) return null;
      if (typeof intent === 'object') return cardOfIntent(intent);
      const retrieved = await upstream(() =>
        stripe.paymentIntents.retrieve(intent, { expand: ['payment_method'] }),
      );
      return cardOfIntent(retrieved as unknown as Record<string, unknown>);
    },
    chargeOffSession: async (charge): Promise<OffSessionResult> => {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: charge.amountCents,
            currency: charge.currency.toLowerCase(),
            ...(charge.customerId ? { customer: charge.customerId } : {}),
            payment_method: charge.paymentMethodId,
            off_session: true,
            confirm: true,
            description: charge.description,
            metadata: {
              account_id: charge.accountId,
              reload_id: charge.reloadId,
              credits: String(charge.credits),
            },
          },
          { idempotencyKey: `autoreload:${charge.reloadId}` },
        );
        if (intent.status === 'succeeded') return { outcome: 'succeeded', paymentId: intent.id };
        if (intent.status === 'requires_action')
          return { outcome: 'authentication_required', reason: 'The card requires authentication.' };
        return { outcome: 'failed', reason: `The payment ended as ${intent.status}.` };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          const reason = error.message || 'The card was declined.';
          return error.code === 'authentication_required'
            ? { outcome: 'authentication_required', reason }
            : { outcome: 'declined', reason };
        }
        // No answer, or Stripe's own trouble: the charge may have happened. The job is retried with the
        // same idempotency key, which answers what the first attempt did instead of charging again.
        if (
          error instanceof Stripe.errors.StripeConnectionError ||
          error instanceof Stripe.errors.StripeAPIError ||
          error instanceof Stripe.errors.StripeRateLimitError
        )
          throw error;
        if (error instanceof Stripe.errors.StripeError)
          return { outcome: 'failed', reason: `The payment processor refused: ${error.message}` };
        throw error;
      }
    },
  };
}
