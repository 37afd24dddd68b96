import { createHmac } from 'node:crypto';

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

/** Every header of a delivery POST. */
export function webhookHeaders(input: {
  secret: string;
  body: string;
  eventType: string;
  deliveryId: string;
  timestamp: number;
  attempt: number;
}): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-svc-event': input.eventType,
    'x-svc-signature': signBody(input.secret, input.body),
    'x-svc-delivery': input.deliveryId,
    'x-svc-timestamp': String(input.timestamp),
    'x-svc-signature-timestamped': signTimestamped(
      input.secret,
      input.timestamp,
      input.deliveryId,
      input.body,
    ),
    'x-svc-attempt': String(input.attempt),
  };
}
