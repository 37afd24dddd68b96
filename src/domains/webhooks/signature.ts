import { createHmac } from 'node:crypto';
import { standardWebhooksKey } from './secret.ts';

export const WEBHOOK_USER_AGENT = 'Tributary-Webhooks/1';

/** `sha256=<hex>`: HMAC-SHA256 of the raw body keyed with the endpoint's signing secret. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * `sha256=<hex>` over `<timestamp>.<delivery id>.<raw body>`: binds the timestamp and delivery id to
 * the body, so a receiver can reject replays (old timestamp, or a delivery id seen before) that an
 * attacker cannot forge by editing those headers.
 */
export function signTimestamped(secret: string, timestamp: number, deliveryId: string, body: string): string {
  const signed = `${timestamp}.${deliveryId}.${body}`;
  return `sha256=${createHmac('sha256', secret).update(signed, 'utf8').digest('hex')}`;
}

/**
 * One Standard Webhooks signature, `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with
 * the secret's bytes (`standardWebhooksKey`).
 */
export function signStandard(secret: string, deliveryId: string, timestamp: number, body: string): string {
  const signed = `${deliveryId}.${timestamp}.${body}`;
  return `v1,${createHmac('sha256', standardWebhooksKey(secret)).update(signed, 'utf8').digest('base64')}`;
}

/**
 * Every header of a delivery POST. During a rotation's grace window (`previousSecret` given):
 * `webhook-signature` carries one signature by each secret, the new one first, so a receiver holding
 * either verifies; the legacy `x-svc-signature*` headers hold one value each and stay signed by the
 * previous secret, the one every receiver had before the rotation, until the window ends.
 */
export function webhookHeaders(input: {
  secret: string;
  previousSecret?: string | null;
  body: string;
  eventType: string;
  deliveryId: string;
  timestamp: number;
  attempt: number;
}): Record<string, string> {
  const { body, deliveryId, timestamp } = input;
  const legacySecret = input.previousSecret ?? input.secret;
  const standard = [input.secret, ...(input.previousSecret ? [input.previousSecret] : [])];
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-svc-event': input.eventType,
    'x-svc-signature': signBody(legacySecret, body),
    'x-svc-delivery': deliveryId,
    'x-svc-timestamp': String(timestamp),
    'x-svc-signature-timestamped': signTimestamped(legacySecret, timestamp, deliveryId, body),
    'x-svc-attempt': String(input.attempt),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standard
      .map((secret) => signStandard(secret, deliveryId, timestamp, body))
      .join(' '),
  };
}
