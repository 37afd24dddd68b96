/** The User-Agent of the service's deliveries. */
const WEBHOOK_USER_AGENT = 'Tributary-Webhooks/1';
const SECRET_PREFIX = 'whsec_';

export interface WebhookSignatureInput {
  /** The signing secret, `whsec_` + base64 of its key. */
  secret: string;
  /** The raw body, exactly the bytes sent. */
  body: string;
  /** `release.status_changed`, … */
  eventType: string;
  /** Unique per delivery (`webhook-id`). */
  deliveryId: string;
  /** Seconds since the epoch (`webhook-timestamp`); default now. */
  timestamp?: number;
  /** 1 for a first attempt. */
  attempt?: number;
}

const encoder = new TextEncoder();

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const normalised = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(normalised + '='.repeat((4 - (normalised.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

async function hmac(key: Uint8Array<ArrayBuffer>, message: string): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message)));
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/**
 * Every header of a webhook delivery POST, signed the way the service signs its own deliveries: the
 * legacy `x-svc-signature` (HMAC-SHA256 of the body keyed with the secret's text),
 * `x-svc-signature-timestamped` (of `<timestamp>.<id>.<body>`) and the Standard Webhooks
 * `webhook-signature` (`v1,` + base64 HMAC of `<id>.<timestamp>.<body>` keyed with the secret's bytes),
 * so a receiver's verification code runs unchanged against a forwarded event.
 */
export async function signWebhook(input: WebhookSignatureInput): Promise<Record<string, string>> {
  const { secret, body, deliveryId } = input;
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  const textKey = encoder.encode(secret) as Uint8Array<ArrayBuffer>;
  const standardKey = base64Bytes(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
  );
  const [plain, timestamped, standard] = await Promise.all([
    hmac(textKey, body),
    hmac(textKey, `${timestamp}.${deliveryId}.${body}`),
    hmac(standardKey, `${deliveryId}.${timestamp}.${body}`),
  ]);
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-svc-event': input.eventType,
    'x-svc-signature': `sha256=${hex(plain)}`,
    'x-svc-delivery': deliveryId,
    'x-svc-timestamp': String(timestamp),
    'x-svc-signature-timestamped': `sha256=${hex(timestamped)}`,
    'x-svc-attempt': String(input.attempt ?? 1),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${base64(standard)}`,
  };
}

/** A new signing secret: `whsec_` + standard base64 of 32 random bytes (the service's own form). */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${base64(crypto.getRandomValues(new Uint8Array(32)))}`;
}
