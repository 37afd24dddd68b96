import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { webhookHeaders } from '../../../src/domains/webhooks/signature.ts';
import { generateWebhookSecret, signWebhook } from '../src/index.ts';

describe('@tributary/client: signWebhook', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'release.status_changed', data: { title: 'Hé ✓' } });

  it('signs exactly as the service signs its deliveries (every header)', async () => {
    const secret = generateWebhookSecret();
    const input = {
      secret,
      body,
      eventType: 'release.status_changed',
      deliveryId: 'dlv_1',
      timestamp: 1_790_000_000,
    };
    expect(await signWebhook({ ...input, attempt: 1 })).toEqual(webhookHeaders({ ...input, attempt: 1 }));
  });

  it('a fresh secret is whsec_ + standard base64 of 32 bytes, and the standardwebhooks package verifies', async () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = await signWebhook({
      secret,
      body,
      eventType: 'release.status_changed',
      deliveryId: 'msg_2',
    });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });
});
