import { describe, expect, it } from 'vitest';
import { dispatchEvent } from '../../src/domains/webhooks/dispatch.ts';
import { rotateEndpointSecret } from '../../src/domains/webhooks/rotation.ts';
import { sendDueWebhooks } from '../../src/domains/webhooks/send-due.ts';
import { startWebhookSender } from '../../src/domains/webhooks/sender.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import type { AppError } from '../../src/platform/errors.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { open } from '../../src/platform/secret-box.ts';
import { accountWithToken } from '../support/factories.ts';
import { until } from '../support/wait.ts';
import {
  accountWithEndpoint,
  publishedEvent,
  type ReceivedRequest,
  testSecretKey,
  useReceiver,
  useWebhookOrm,
} from './harness.ts';
import { legacyVerifies, standardVerifies } from './receivers.ts';

const orm = useWebhookOrm();
const secretKey = testSecretKey();
// The grace window is judged on this clock; the signatures' timestamps stay on the wall clock.
const clock = new ManualClock(new Date());
const hooks = useReceiver();
let pathCounter = 0;

const setup = () => accountWithEndpoint(orm(), hooks.receiver, `/rotation/${++pathCounter}`, secretKey);

const rotate = (accountId: string, endpointId: string, graceSeconds?: number) =>
  rotateEndpointSecret(orm().em.fork(), accountId, endpointId, { graceSeconds, secretKey, now: clock.now() });

/** Dispatches `count` events to the account's endpoints and sends them; returns what the receiver got. */
async function deliver(accountId: string, path: string, count = 3): Promise<ReceivedRequest[]> {
  const before = hooks.receiver.at(path).length;
  for (let n = 0; n < count; n++) {
    await dispatchEvent(orm().em.fork(), publishedEvent(accountId), clock.now());
  }
  await sendDueWebhooks(
    orm().em.fork(),
    { outbound: hooks.outbound, secretKey, now: clock.now(), timeoutSeconds: 5 },
    50,
  );
  const hits = hooks.receiver.at(path).slice(before);
  expect(hits).toHaveLength(count);
  return hits;
}

describe('secret rotation with a grace window', () => {
  it('during the window receivers of the old and of the new secret verify every delivery; after it only the new', async () => {
    const { accountId, endpointId, secret: oldSecret, path } = await setup();
    const { endpoint, secret: newSecret } = await rotate(accountId, endpointId, 3600);
    expect(newSecret).not.toBe(oldSecret);
    expect(endpoint.previousSecretExpiresAt).toEqual(new Date(clock.now().getTime() + 3600_000));

    clock.advance(3599);
    for (const hit of await deliver(accountId, path)) {
      expect(standardVerifies(oldSecret, hit)).toBe(true);
      expect(standardVerifies(newSecret, hit)).toBe(true);
      const [first, second, ...more] = String(hit.headers['webhook-signature']).split(' ');
      expect(more).toEqual([]);
      // The new secret's signature first.
      expect(
        standardVerifies(newSecret, { ...hit, headers: { ...hit.headers, 'webhook-signature': first! } }),
      ).toBe(true);
      expect(
        standardVerifies(oldSecret, { ...hit, headers: { ...hit.headers, 'webhook-signature': second! } }),
      ).toBe(true);
      // The legacy header keeps one value, by the secret every receiver had before the rotation.
      expect(await legacyVerifies(oldSecret, hit)).toBe(true);
      expect(await legacyVerifies(newSecret, hit)).toBe(false);
    }

    clock.advance(1);
    for (const hit of await deliver(accountId, path)) {
      expect(standardVerifies(newSecret, hit)).toBe(true);
      expect(standardVerifies(oldSecret, hit)).toBe(false);
      expect(String(hit.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(await legacyVerifies(newSecret, hit)).toBe(true);
      expect(await legacyVerifies(oldSecret, hit)).toBe(false);
    }
  });

  it('the grace is judged when each delivery is sent: one queued in the window and sent after it has the new secret only', async () => {
    const { accountId, endpointId, secret: oldSecret, path } = await setup();
    const { secret: newSecret } = await rotate(accountId, endpointId, 60);
    await dispatchEvent(orm().em.fork(), publishedEvent(accountId), clock.now());
    clock.advance(60);
    await sendDueWebhooks(
      orm().em.fork(),
      { outbound: hooks.outbound, secretKey, now: clock.now(), timeoutSeconds: 5 },
      50,
    );
    const [hit] = hooks.receiver.at(path);
    expect(standardVerifies(newSecret, hit!)).toBe(true);
    expect(standardVerifies(oldSecret, hit!)).toBe(false);
  });

  it("the sender's pipeline signs with both secrets too", async () => {
    const { accountId, endpointId, secret: oldSecret, path } = await setup();
    const { secret: newSecret } = await rotate(accountId, endpointId, 600);
    await dispatchEvent(orm().em.fork(), publishedEvent(accountId), clock.now());
    const stop = startWebhookSender({
      orm: orm(),
      outbound: hooks.outbound,
      secretKey,
      clock,
      logger: createLogger('silent'),
      timeoutSeconds: 5,
      concurrency: 2,
    });
    try {
      await until(() => hooks.receiver.at(path).length === 1, 10_000);
    } finally {
      await stop();
    }
    const [hit] = hooks.receiver.at(path);
    expect(standardVerifies(oldSecret, hit!)).toBe(true);
    expect(standardVerifies(newSecret, hit!)).toBe(true);
  });

  it('keeps one old secret: a rotation inside the window replaces it by the one in force', async () => {
    const { accountId, endpointId, secret: first, path } = await setup();
    const { secret: second } = await rotate(accountId, endpointId, 3600);
    clock.advance(600);
    const { endpoint, secret: third } = await rotate(accountId, endpointId, 3600);
    expect(endpoint.previousSecretExpiresAt).toEqual(new Date(clock.now().getTime() + 3600_000));
    for (const hit of await deliver(accountId, path, 1)) {
      expect(standardVerifies(third, hit)).toBe(true);
      expect(standardVerifies(second, hit)).toBe(true);
      expect(standardVerifies(first, hit)).toBe(false);
      expect(String(hit.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(await legacyVerifies(second, hit)).toBe(true);
    }
  });

  it('grace 0 keeps no old secret: deliveries are signed by the new one only, at once', async () => {
    const { accountId, endpointId, path } = await setup();
    const { secret: second } = await rotate(accountId, endpointId, 3600);
    // Even inside an open window, grace 0 drops every old secret.
    const { endpoint, secret: third } = await rotate(accountId, endpointId, 0);
    expect(endpoint.previousSecretExpiresAt).toBeNull();
    const [hit] = await deliver(accountId, path, 1);
    expect(standardVerifies(third, hit!)).toBe(true);
    expect(standardVerifies(second, hit!)).toBe(false);
    expect(await legacyVerifies(third, hit!)).toBe(true);
  });

  it('stores the previous secret sealed with its expiry; the default window is one day', async () => {
    const { accountId, endpointId, secret: oldSecret } = await setup();
    const { secret: newSecret } = await rotate(accountId, endpointId);
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [row] = await orm()
      .em.fork()
      .getConnection()
      .execute(
        'select secret_sealed, secret_prefix, previous_secret_sealed, previous_secret_expires_at from webhook_endpoints where id = ?',
        [endpointId],
      );
    if (!row) throw new Error('the endpoint row is gone');
    expect(JSON.stringify(row)).not.toContain(oldSecret.slice(8));
    expect(JSON.stringify(row)).not.toContain(newSecret.slice(8));
    expect(open(String(row.previous_secret_sealed), secretKey)).toBe(oldSecret);
    expect(open(String(row.secret_sealed), secretKey)).toBe(newSecret);
    expect(row.secret_prefix).toBe(newSecret.slice(0, 10));
    expect(new Date(row.previous_secret_expires_at)).toEqual(new Date(clock.now().getTime() + 86_400_000));
  });

  it("refuses a window beyond 0..7 days and another account's endpoint", async () => {
    const { accountId, endpointId } = await setup();
    for (const graceSeconds of [-1, 7 * 86_400 + 1, 1.5]) {
      const error = (await rotate(accountId, endpointId, graceSeconds).catch((e) => e)) as AppError;
      expect(error.type, String(graceSeconds)).toBe('invalid_request_error');
    }
    expect((await rotate(accountId, endpointId, 7 * 86_400)).endpoint.previousSecretExpiresAt).not.toBeNull();
    const stranger = await accountWithToken(orm().em.fork());
    const error = (await rotate(stranger.accountId, endpointId).catch((e) => e)) as AppError;
    expect(error.code).toBe('webhook_not_found');
  });
});
