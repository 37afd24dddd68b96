import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendWebhook } from '../../src/domains/webhooks/send.ts';
import { createOutboundClient, type OutboundClient } from '../../src/platform/http/index.ts';
import { seal } from '../../src/platform/secret-box.ts';
import { LOOPBACK_OK, tableResolver, testSecretKey } from './harness.ts';

/**
 * A receiver that answers 200 at once and then trickles its body a byte a second, forever: reading the
 * body to keep the connection must not hold a delivery slot for as long as the receiver likes.
 */
let server: Server;
let outbound: OutboundClient;
const trickling = new Set<ServerResponse>();
const closed: number[] = [];

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('a');
    trickling.add(res);
    const timer = setInterval(() => res.write('b'), 1000);
    res.on('close', () => {
      clearInterval(timer);
      trickling.delete(res);
      closed.push(Date.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  outbound = createOutboundClient({
    policy: LOOPBACK_OK,
    timeoutSeconds: 30,
    resolver: tableResolver({ 'slow.test': '127.0.0.1' }),
    maxRedirects: 0,
  });
});

afterAll(async () => {
  for (const res of trickling) res.destroy();
  await outbound?.close();
  await new Promise((resolve) => server?.close(resolve));
});

it('a body trickled after a 2xx is given up on after a short deadline: the delivery succeeds and frees its slot', async () => {
  const secretKey = testSecretKey();
  const { port } = server.address() as AddressInfo;
  const started = Date.now();
  const outcome = await sendWebhook(
    {
      id: 'delivery-1',
      endpoint_id: 'endpoint-1',
      url: `http://slow.test:${port}/hook`,
      secret_sealed: seal('whsec_test', secretKey),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      event_type: 'release.status_changed',
      payload: { event: 'release.status_changed' },
      attempts: 0,
    },
    { outbound, secretKey },
  );
  const took = Date.now() - started;
  expect(outcome).toMatchObject({ ok: true, status: 200, error: null });
  // The overall timeout is 30 s and each byte comes within undici's body timeout; only the deadline on
  // reading the discarded body ends it.
  expect(took).toBeLessThan(5_000);
  await expect.poll(() => closed.length, { timeout: 5_000 }).toBe(1);
});
