/**
 * The floor of the webhook delivery path: a bare https client loop in a process of its own (as the
 * server is), posting signed webhook bodies to a receiver with keep-alive connections and no database.
 * Settings come from the environment: TARGET_URL, COUNT, CONCURRENCY (also the connection count) and
 * NODE_EXTRA_CA_CERTS for the receiver's certificate. Prints `result=<json>` and exits.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import { webhookHeaders } from '../../src/domains/webhooks/signature.ts';

const target = new URL(process.env.TARGET_URL ?? '');
const count = Number(process.env.COUNT);
const concurrency = Number(process.env.CONCURRENCY);
const secret = `whsec_${randomBytes(32).toString('base64url')}`;
const pool = new Pool(target.origin, { connections: concurrency });

let next = 0;
let failures = 0;
const started = performance.now();
const loop = async () => {
  while (next < count) {
    const n = next++;
    const body = JSON.stringify({ n, event: 'release.status_changed' });
    const headers = webhookHeaders({
      secret,
      body,
      eventType: 'release.status_changed',
      deliveryId: randomUUID(),
      timestamp: Math.floor(Date.now() / 1000),
      attempt: 1,
    });
    const response = await pool.request({ path: target.pathname, method: 'POST', headers, body });
    await response.body.dump();
    if (response.statusCode < 200 || response.statusCode >= 300) failures++;
  }
};
await Promise.all(Array.from({ length: concurrency }, loop));
const seconds = (performance.now() - started) / 1000;
console.log(`result=${JSON.stringify({ sent: count, failures, seconds })}`);
await pool.close();
