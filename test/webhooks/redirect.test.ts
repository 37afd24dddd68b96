import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEndpoint,
  dispatchEvent,
  sendDueWebhooks,
  WebhookDelivery,
} from '../../src/domains/webhooks/index.ts';
import { createOutboundClient } from '../../src/platform/http/index.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { startHttpsReceiver } from '../support/https-receiver.ts';

describe('a webhook URL that redirects to a private address', () => {
  const app = useTestApp();
  let receiver: Awaited<ReturnType<typeof startHttpsReceiver>>;
  beforeAll(async () => {
    receiver = await startHttpsReceiver(
      () => 307,
      () => ({ location: 'https://10.0.0.1/steal' }),
    );
  });
  afterAll(() => receiver.close());

  it('is never followed: the attempt fails and nothing is sent to the redirect target', async () => {
    const account = await accountWithToken(app().em());
    const secretKey = app().services.webhookSecretKey;
    const policy = { allowPrivate: true };
    const outbound = createOutboundClient({
      policy,
      timeoutSeconds: 5,
      maxRedirects: 0,
      extraCaCertificates: [readFileSync(receiver.certFile, 'utf8')],
    });
    const { endpoint } = await createEndpoint(
      app().em(),
      account.accountId,
      { url: receiver.url('/hook') },
      { policy, secretKey },
    );
    await dispatchEvent(
      app().em(),
      {
        cursor: 1,
        id: 1,
        accountId: account.accountId,
        releaseId: null,
        type: 'release.approved',
        payload: { event: 'release.approved' },
        createdAt: new Date().toISOString(),
      },
      new Date(),
    );
    const result = await sendDueWebhooks(
      app().em(),
      { outbound, secretKey, now: new Date(), timeoutSeconds: 5 },
      10,
    );
    await outbound.close();
    expect(result).toMatchObject({ claimed: 1, succeeded: 0, retrying: 1 });
    expect(receiver.hits).toHaveLength(1);
    const delivery = await app().em().findOneOrFail(WebhookDelivery, { endpoint: endpoint.id });
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(delivery.lastError).toMatch(/redirect/i);
  });
});
