import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dispatchEvent } from '../../src/domains/webhooks/dispatch.ts';
import { sendDueWebhooks } from '../../src/domains/webhooks/send-due.ts';
import { signTimestamped } from '../../src/domains/webhooks/signature.ts';
import { WebhookEndpoint } from '../../src/domains/webhooks/webhook-endpoint.entity.ts';
import { seal } from '../../src/platform/secret-box.ts';
import { accountWithEndpoint, publishedEvent, testSecretKey, useReceiver, useWebhookOrm } from './harness.ts';
import { asStandardBase64, legacyVerifies, standardVerifies } from './receivers.ts';

const orm = useWebhookOrm();
const secretKey = testSecretKey();
const hooks = useReceiver();
let pathCounter = 0;

const setup = () => accountWithEndpoint(orm(), hooks.receiver, `/standard/${++pathCounter}`, secretKey);

async function deliverOne(accountId: string, path: string) {
  await dispatchEvent(orm().em.fork(), publishedEvent(accountId), new Date());
  await sendDueWebhooks(
    orm().em.fork(),
    { outbound: hooks.outbound, secretKey, now: new Date(), timeoutSeconds: 5 },
    50,
  );
  const hits = hooks.receiver.at(path);
  expect(hits.length).toBeGreaterThan(0);
  return hits.at(-1)!;
}

describe('Standard Webhooks headers', () => {
  it('new secrets are standard base64: the standardwebhooks package takes them as given', async () => {
    const { accountId, secret, path } = await setup();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const hit = await deliverOne(accountId, path);
    const { headers, body } = hit;
    expect(headers['webhook-id']).toBe(headers['x-svc-delivery']);
    expect(headers['webhook-timestamp']).toBe(headers['x-svc-timestamp']);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(standardVerifies(secret, hit)).toBe(true);
    expect(standardVerifies(`whsec_${randomBytes(32).toString('base64')}`, hit)).toBe(false);
    // A body changed in transit, or a webhook-id replaced, no longer verifies.
    expect(standardVerifies(secret, { ...hit, body: body.replace('delivered', 'deliverex') })).toBe(false);
    expect(
      standardVerifies(secret, { ...hit, headers: { ...headers, 'webhook-id': crypto.randomUUID() } }),
    ).toBe(false);
  });

  it('keeps every existing header exactly as it was', async () => {
    const { accountId, secret, path } = await setup();
    const hit = await deliverOne(accountId, path);
    const { headers, body } = hit;
    expect(headers['x-svc-event']).toBe('release.status_changed');
    expect(headers['x-svc-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await legacyVerifies(secret, hit)).toBe(true);
    expect(headers['x-svc-signature-timestamped']).toBe(
      signTimestamped(secret, Number(headers['x-svc-timestamp']), String(headers['x-svc-delivery']), body),
    );
    expect(headers['x-svc-attempt']).toBe('1');
    expect(headers['user-agent']).toBe('Tributary-Webhooks/1');
  });

  it('a secret made before (base64url) keys the same bytes: its receiver converts -_ to +/ and pads', async () => {
    const { accountId, endpointId, path } = await setup();
    // A base64url secret as endpoints created before had, with the characters that tell the alphabets apart.
    let legacy: string;
    do legacy = `whsec_${randomBytes(32).toString('base64url')}`;
    while (!/[-_]/.test(legacy.slice('whsec_'.length)));
    await orm()
      .em.fork()
      .nativeUpdate(WebhookEndpoint, { id: endpointId }, { secretSealed: seal(legacy, secretKey) });
    const hit = await deliverOne(accountId, path);
    expect(await legacyVerifies(legacy, hit)).toBe(true);
    expect(standardVerifies(asStandardBase64(legacy), hit)).toBe(true);
    // The package decodes standard base64 only: given as it is, the secret is refused.
    expect(standardVerifies(legacy, hit)).toBe(false);
  });
});
