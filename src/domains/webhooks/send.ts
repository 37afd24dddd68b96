import { isAppError } from '../../platform/errors.ts';
import type { OutboundClient, OutboundResponse } from '../../platform/http/index.ts';
import { open } from '../../platform/secret-box.ts';
import type { ClaimedDelivery } from './claim.ts';
import { webhookHeaders } from './signature.ts';

export interface SendDeps {
  /** The SSRF-guarded client (no redirects wanted: create it with maxRedirects 0). */
  outbound: OutboundClient;
  secretKey: Uint8Array;
  /** Opened signing secrets by sealed value (see `secretOpener`); one opening per endpoint, not per POST. */
  openSecret?: (sealed: string) => string;
}

export interface Outcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
}

const OPENED_SECRETS_KEPT = 1000;
/** Response body bytes read (and ignored) to keep the connection; a longer body closes it instead. */
const DISCARDED_BODY_BYTES = 64 * 1024;
/**
 * How long the discarded body may take after the status arrived; past it the connection is closed.
 * Each chunk may come within the outbound client's body timeout, so without this a receiver trickling
 * bytes would hold a delivery slot for as long as it liked (and fill every slot of every process).
 */
export const DISCARDED_BODY_DEADLINE_MS = 1000;

/**
 * Reads the response body to its end so the keep-alive connection goes back to the pool: a body
 * dropped unread aborts the request and closes the socket, and the next POST pays a TLS handshake.
 */
async function discardBody(response: OutboundResponse): Promise<void> {
  let read = 0;
  const deadline = setTimeout(() => response.dispose(), DISCARDED_BODY_DEADLINE_MS);
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      read += chunk.length;
      if (read > DISCARDED_BODY_BYTES) break;
    }
  } catch {
    // The status decides the outcome; a body cut short only costs the connection.
  } finally {
    clearTimeout(deadline);
    response.dispose();
  }
}

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

/** POSTs one claimed delivery, signed as documented; never throws (a failure is an outcome). */
export async function sendDelivery(row: ClaimedDelivery, deps: SendDeps): Promise<Outcome> {
  const body = JSON.stringify(row.payload);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const secret = deps.openSecret
      ? deps.openSecret(row.secret_sealed)
      : open(row.secret_sealed, deps.secretKey);
    const headers = webhookHeaders({
      secret,
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
    });
    const latencyMs = latency();
    await discardBody(response);
    const ok = response.status >= 200 && response.status < 300;
    return { ok, status: response.status, latencyMs, error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    const message = isAppError(error)
      ? `${error.code}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
    return { ok: false, status: null, latencyMs: latency(), error: message.slice(0, 1000) };
  }
}
