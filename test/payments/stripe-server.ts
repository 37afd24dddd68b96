import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A card the fake knows: how an off-session PaymentIntent with it ends. */
export type CardBehaviour = 'pays' | 'authentication_required' | 'declined';

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  form: Record<string, string>;
}

interface StoredIntent {
  id: string;
  customer: string | null;
  paymentMethod: { id: string; brand: string; last4: string; behaviour: CardBehaviour };
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * A loopback server speaking the part of Stripe's HTTP API the adapter uses: form-encoded bodies,
 * `Authorization: Bearer sk_…`, `Idempotency-Key` replays (the same key answers the first response),
 * and errors in Stripe's shape (`{error: {type, code, message, param}}`, 402 for card errors).
 */
export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, Record<string, unknown>>();
  readonly intents = new Map<string, StoredIntent>();
  /** The next create-session call fails with a 500 (the SDK retries it with the same key). */
  failNextSession = false;
  /**
   * The next this-many answers to create-PaymentIntent calls are lost: the call is carried out (and its
   * answer kept for its idempotency key), then the connection closes without a reply.
   */
  loseIntentAnswers = 0;
  /** The next create-session call is refused with this Stripe error. */
  refuseNextSession: { type: string; message: string; param?: string } | null = null;
  private readonly replies = new Map<string, { status: number; body: unknown }>();
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Pays a session as Stripe Checkout would: a PaymentIntent with the given card behind it. */
  pay(sessionId: string, card: { last4: string; behaviour: CardBehaviour }): Record<string, unknown> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const intent: StoredIntent = {
      id: id('pi'),
      customer: (session.customer as string | null) ?? null,
      paymentMethod: { id: id('pm'), brand: 'visa', last4: card.last4, behaviour: card.behaviour },
    };
    this.intents.set(intent.id, intent);
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id });
    return session;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    this.requests.push({ method: req.method ?? '', path: url.pathname, idempotencyKey: key, form });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...headers });
      res.end(JSON.stringify(body));
    };
    if (!/^Bearer sk_test_\w+$/.test(req.headers.authorization ?? '')) {
      send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
      return;
    }
    const loseAnswer =
      req.method === 'POST' && url.pathname === '/v1/payment_intents' && this.loseIntentAnswers > 0;
    if (loseAnswer) this.loseIntentAnswers--;
    const replayKey = key ? `${req.method} ${url.pathname} ${key}` : null;
    const replay = replayKey ? this.replies.get(replayKey) : undefined;
    if (replay) {
      if (loseAnswer) req.socket.destroy();
      else send(replay.status, replay.body, { 'idempotent-replayed': 'true' });
      return;
    }
    const answer = this.route(req.method ?? '', url, form);
    if (answer.status === 500) {
      send(500, answer.body, { 'stripe-should-retry': 'true' });
      return;
    }
    if (replayKey) this.replies.set(replayKey, answer);
    if (loseAnswer) req.socket.destroy();
    else send(answer.status, answer.body);
  }

  private route(method: string, url: URL, form: Record<string, string>): { status: number; body: unknown } {
    const invalid = (message: string, param?: string) => ({
      status: 400,
      body: { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } },
    });
    if (method === 'POST' && url.pathname === '/v1/customers') {
      return { status: 200, body: { id: id('cus'), object: 'customer', email: form.email ?? null } };
    }
    if (method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (this.failNextSession) {
        this.failNextSession = false;
        return { status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred.' } } };
      }
      if (this.refuseNextSession) {
        const refusal = this.refuseNextSession;
        this.refuseNextSession = null;
        return { status: 400, body: { error: refusal } };
      }
      const uiMode = form.ui_mode ?? 'hosted_page';
      if (!['hosted_page', 'embedded_page'].includes(uiMode))
        return invalid(`Invalid ui_mode: ${uiMode}`, 'ui_mode');
      if (uiMode === 'embedded_page' && !form.return_url)
        return invalid('return_url is required', 'return_url');
      if (uiMode === 'hosted_page' && !form.success_url)
        return invalid('success_url is required', 'success_url');
      if (form.mode !== 'payment') return invalid('mode must be payment', 'mode');
      const amount =
        Number(form['line_items[0][price_data][unit_amount]']) * Number(form['line_items[0][quantity]']);
      if (!Number.isInteger(amount) || amount <= 0)
        return invalid('Invalid unit_amount', 'line_items[0][price_data][unit_amount]');
      const sessionId = `cs_test_${randomBytes(16).toString('hex')}`;
      const session = {
        id: sessionId,
        object: 'checkout.session',
        mode: 'payment',
        ui_mode: uiMode,
        status: 'open',
        payment_status: 'unpaid',
        amount_total: amount,
        currency: form['line_items[0][price_data][currency]'],
        customer: form.customer ?? null,
        payment_intent: null,
        metadata: { account_id: form['metadata[account_id]'], checkout_id: form['metadata[checkout_id]'] },
        url: uiMode === 'hosted_page' ? `https://checkout.stripe.test/c/pay/${sessionId}` : null,
        client_secret:
          uiMode === 'embedded_page' ? `${sessionId}_secret_${randomBytes(8).toString('hex')}` : null,
        expires_at: Math.floor(Date.now() / 1000) + 24 * 3600,
      };
      this.sessions.set(sessionId, session);
      return { status: 200, body: session };
    }
    const retrieve = /^\/v1\/payment_intents\/(pi_\w+)$/.exec(url.pathname);
    if (method === 'GET' && retrieve) {
      const intent = this.intents.get(retrieve[1]!);
      if (!intent)
        return {
          status: 404,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: 'No such payment_intent',
            },
          },
        };
      const expanded =
        url.searchParams.getAll('expand[]').includes('payment_method') ||
        url.searchParams.getAll('expand[0]').includes('payment_method');
      return { status: 200, body: this.intentBody(intent, 'succeeded', expanded) };
    }
    if (method === 'POST' && url.pathname === '/v1/payment_intents') {
      const method = [...this.intents.values()].find((i) => i.paymentMethod.id === form.payment_method);
      if (!method) return invalid('No such PaymentMethod', 'payment_method');
      if (form.off_session !== 'true' || form.confirm !== 'true')
        return invalid('expected off_session and confirm');
      const intent: StoredIntent = {
        id: id('pi'),
        customer: form.customer ?? null,
        paymentMethod: method.paymentMethod,
      };
      this.intents.set(intent.id, intent);
      const behaviour = method.paymentMethod.behaviour;
      if (behaviour === 'pays') return { status: 200, body: this.intentBody(intent, 'succeeded', false) };
      const requiresAction = behaviour === 'authentication_required';
      return {
        status: 402,
        body: {
          error: {
            type: 'card_error',
            code: requiresAction ? 'authentication_required' : 'card_declined',
            decline_code: requiresAction ? 'authentication_required' : 'generic_decline',
            message: requiresAction
              ? 'This payment requires authentication; the customer must be on session.'
              : 'Your card was declined.',
            payment_intent: this.intentBody(
              intent,
              requiresAction ? 'requires_action' : 'requires_payment_method',
              false,
            ),
          },
        },
      };
    }
    return {
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${url.pathname}).`,
        },
      },
    };
  }

  private intentBody(intent: StoredIntent, status: string, expanded: boolean) {
    const method = intent.paymentMethod;
    return {
      id: intent.id,
      object: 'payment_intent',
      status,
      customer: intent.customer,
      payment_method: expanded
        ? {
            id: method.id,
            object: 'payment_method',
            card: { brand: method.brand, last4: method.last4, exp_month: 12, exp_year: 2030 },
          }
        : method.id,
    };
  }
}
