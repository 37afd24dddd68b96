import { type Clock, systemClock } from '../../platform/clock.ts';
import { isAppError } from '../../platform/errors.ts';
import type { OutboundClient } from '../../platform/http/index.ts';
import { open } from '../../platform/secret-box.ts';
import type { ClaimedWebhookDelivery } from './claim.ts';
import { webhookHeaders } from './signature.ts';

export interface SendDeps {
  /** The SSRF-guarded client (no redirects wanted: create it with maxRedirects 0). */
  outbound: OutboundClient;
  secretKey: Uint8Array;
  /** Opened signing secrets by sealed value (see `secretOpener`); one opening per endpoint, not per POST. */
  openSecret?: (sealed: string) => string;
  /** Judges whether a rotated-out secret's grace window is still open; the system clock by default. */
  clock?: Clock;
}

export interface SendOutcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

const OPENED_SECRETS_KEPT = 1000;
/**
 * Response body bytes read (and ignored) to keep the connection; a longer body closes it instead. A
 * body dropped unread would abort the request and close the socket: the next POST would pay a TLS
 * handshake.
 */
const DISCARDED_BODY_BYTES = 64 * 1024;

/**
 * Opens sealed signing secrets, remembering the last few hundred: a rotated or deleted endpoint has a
 * new sealed value, so a remembered one is never stale.
 */
export function secretOpener(secretKey: Uint8Array): (sealed: string) => string {
  const opened = new Map<string, string>();
  return (sealed) => {
    let secret = opened.get(sealed);
    if (secret === undefined) {
      secret = open(sealed, secretKey);
      if (opened.size >= OPENED_SECRETS_KEPT) opened.clear();
      opened.set(sealed, secret);
    }
    return secret;
  };
}

/** The signing secrets of a row: the current one, and the previous one while its grace window is open. */
function secretsOf(
  row: ClaimedWebhookDelivery,
  deps: SendDeps,
): { secret: string; previousSecret: string | null } {
  const openSealed = (sealed: string) =>
    deps.openSecret ? deps.openSecret(sealed) : open(sealed, deps.secretKey);
  const now = (deps.clock ?? systemClock).now();
  const previous = row.previous_secret_sealed;
  const expires = row.previous_secret_expires_at;
  const inGrace = previous !== null && expires !== null && new Date(expires) > now;
  return {
    secret: openSealed(row.secret_sealed),
    previousSecret: inGrace ? openSealed(previous) : null,
  };
}

/**
 * POSTs one claimed webhook delivery (one attempt), signed as documented; never throws (a failure is
 * an outcome).
 */
export async function sendWebhook(row: ClaimedWebhookDelivery, deps: SendDeps): Promise<SendOutcome> {
  const body = JSON.stringify(row.payload);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const headers = webhookHeaders({
      ...secretsOf(row, deps),
      body,
      eventType: row.event_type,
      deliveryId: row.id,
      // Wall-clock time of sending (receivers compare it with their own clock).
      timestamp: Math.floor(Date.now() / 1000),
      attempt: row.attempts + 1,
    });
    const response = await deps.outbound.request(row.url, {
      method: 'POST',
      headers,
      body,
      fieldPath: 'url',
      discardBodyBytes: DISCARDED_BODY_BYTES,
    });
    const latencyMs = latency();
    const ok = response.status >= 200 && response.status < 300;
    return { ok, status: response.status, latencyMs, error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    return failedOutcome(error, latency());
  }
}

/** A send that ended in an error, as the delivery log records it (the message, at most 1,000 characters). */
export function failedOutcome(error: unknown, latencyMs: number): SendOutcome {
  const message = isAppError(error)
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
  return { ok: false, status: null, latencyMs, error: message.slice(0, 1000) };
}
