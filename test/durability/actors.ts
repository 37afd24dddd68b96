import Stripe from 'stripe';
import type { AccountFixture } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { completionEvent } from '../support/payment-events.ts';
import { type Assets, validSubmission } from '../support/releases.ts';

/** Where the server is now: it moves to a new port when it restarts. */
export type ServerUrl = () => string;

/** A network error or a 5xx: the outcome is unknown, the client retries the same request. */
const unknown = (status: number | null) => status === null || status >= 500;

async function attempt<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch {
    return null;
  }
}

/** Sends each item again until it is answered (at most 20 times, 250 ms apart); returns how many. */
async function retryEach<T>(items: T[], send: (item: T) => Promise<boolean>): Promise<number> {
  for (const item of items)
    for (let n = 0; n < 20 && !(await send(item)); n++) await new Promise((r) => setTimeout(r, 250));
  return items.length;
}

export interface Submission {
  key: string;
  body: ReturnType<typeof validSubmission>;
  /** Every release id a 201 answer named (one, however many retries). */
  releaseIds: string[];
  /** 'accepted' (201), 'refused' (a 4xx, e.g. insufficient credits) or still unknown. */
  outcome: 'accepted' | 'refused' | 'unknown';
  attempts: number;
}

/** Submits releases with idempotency keys; an answer lost to a crash is retried with the same key. */
export class Submitter {
  readonly submissions: Submission[] = [];
  readonly #url: ServerUrl;
  readonly #account: AccountFixture;
  readonly #storeIds: number[];

  /** `storeIds`: where each release goes (the default: two sandbox stores). */
  constructor(url: ServerUrl, account: AccountFixture, storeIds: number[] = [301, 302]) {
    this.#url = url;
    this.#account = account;
    this.#storeIds = storeIds;
  }

  /** Submits `count` releases one after the other, stopping at the first unknown outcome. */
  async run(prefix: string, assets: Assets, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const body = validSubmission(assets, 1);
      body.release.distribution_store_ids = this.#storeIds;
      const submission: Submission = {
        key: `${prefix}-${i}`,
        body,
        releaseIds: [],
        outcome: 'unknown',
        attempts: 0,
      };
      this.submissions.push(submission);
      if (!(await this.send(submission))) return;
    }
  }

  /** One attempt; false when the outcome stays unknown. */
  async send(submission: Submission): Promise<boolean> {
    submission.attempts++;
    const answer = await attempt(() =>
      request(this.#url(), 'POST', '/v1/releases', {
        token: this.#account.token,
        body: submission.body,
        headers: { 'idempotency-key': submission.key },
      }),
    );
    if (unknown(answer?.status ?? null)) return false;
    if (answer!.status === 201) {
      submission.outcome = 'accepted';
      submission.releaseIds.push(answer!.body.releaseId);
    } else submission.outcome = 'refused';
    return true;
  }

  /** Retries every submission whose answer was lost; returns how many there were. */
  retryUnknown(): Promise<number> {
    return retryEach(
      this.submissions.filter((s) => s.outcome === 'unknown'),
      (s) => this.send(s),
    );
  }
}

export interface Checkout {
  sessionId: string;
  credits: number;
  via: 'page' | 'event';
  /** The completion event sent (the event path): a retry sends the same one, signed afresh. */
  event?: string;
  outcome: 'paid' | 'unknown';
  attempts: number;
}

/**
 * Buys credits: opens a sandbox checkout, then pays it on the hosted page, or has the processor's
 * completion event delivered (sometimes twice at once). An unanswered payment is retried.
 */
export class Buyer {
  readonly checkouts: Checkout[] = [];
  readonly #url: ServerUrl;
  readonly #account: AccountFixture;
  readonly #eventSecret: string;

  constructor(url: ServerUrl, account: AccountFixture, eventSecret: string) {
    this.#url = url;
    this.#account = account;
    this.#eventSecret = eventSecret;
  }

  /** `via` forces how checkouts are paid (the hosted page saves the card for auto-reload). */
  async run(count: number, random: () => number, via?: Checkout['via']): Promise<void> {
    for (let i = 0; i < count; i++) {
      const credits = 3 + Math.floor(random() * 8);
      const opened = await attempt(() =>
        request(this.#url(), 'POST', '/v1/credits/checkout', {
          token: this.#account.token,
          body: { credits, ui_mode: 'hosted', save_payment_method: i === 0 },
        }),
      );
      if (opened?.status !== 200) return; // never opened, or unknown: nobody can pay it
      const checkout: Checkout = {
        sessionId: opened.body.sessionId,
        credits,
        via: via ?? (random() < 0.5 ? 'page' : 'event'),
        outcome: 'unknown',
        attempts: 0,
      };
      if (checkout.via === 'event') checkout.event = completionEvent(checkout.sessionId, opened.body.amount);
      this.checkouts.push(checkout);
      if (!(await this.pay(checkout, checkout.via === 'event' && random() < 0.3 ? 2 : 1))) return;
    }
  }

  /** Pays (or delivers the event `copies` times at once); false when the outcome stays unknown. */
  async pay(checkout: Checkout, copies = 1): Promise<boolean> {
    checkout.attempts++;
    const answers = await Promise.all(
      Array.from({ length: copies }, () => attempt(() => this.#payOnce(checkout))),
    );
    if (answers.some((status) => status === 303 || status === 200)) {
      checkout.outcome = 'paid';
      return true;
    }
    return false;
  }

  #payOnce(checkout: Checkout): Promise<number> {
    if (checkout.via === 'page')
      return request(this.#url(), 'POST', `/sandbox/checkout/${checkout.sessionId}/pay`, {
        rawBody: 'card_number=4242424242424242&save_card=on',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }).then((r) => r.status);
    const payload = checkout.event!;
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: this.#eventSecret });
    return request(this.#url(), 'POST', '/v1/payments/stripe/events', {
      rawBody: payload,
      headers: { 'stripe-signature': signature },
    }).then((r) => r.status);
  }

  /** Retries every payment whose answer was lost; returns how many there were. */
  retryUnknown(): Promise<number> {
    return retryEach(
      this.checkouts.filter((c) => c.outcome === 'unknown'),
      (c) => this.pay(c),
    );
  }
}
