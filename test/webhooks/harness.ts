import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll } from 'vitest';
import { createEndpoint } from '../../src/domains/webhooks/endpoints.ts';
import type { PublishedEvent } from '../../src/platform/events/pubsub.ts';
import {
  createOutboundClient,
  type OutboundClient,
  type OutboundPolicy,
  type Resolver,
} from '../../src/platform/http/index.ts';
import { accountWithToken } from '../support/factories.ts';
import { useTestOrm } from '../support/orm.ts';

/** The domain's tests run on a migrated database of their own. */
export function useWebhookOrm(): () => MikroORM {
  return useTestOrm('webhooks');
}

export const RECEIVER_HOST = 'hooks.test';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body bytes as received, decoded as UTF-8. */
  body: string;
}

export interface Receiver {
  port: number;
  /** The PEM certificate the receiver serves (trust it with `extraCaCertificates`). */
  cert: string;
  received: ReceivedRequest[];
  /** TLS connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  connections(): number;
  /** `https://hooks.test:<port><path>`. */
  url(pathname: string): string;
  /** Status codes a path answers with, in turn; the last one repeats. Default 200. */
  respond(pathname: string, statuses: number[]): void;
  at(pathname: string): ReceivedRequest[];
  close(): Promise<void>;
}

/** An HTTPS receiver on loopback with a throwaway certificate (openssl CLI) for hooks.test. */
export async function startReceiver(): Promise<Receiver> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tributary-webhooks-'));
  const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', `/CN=${RECEIVER_HOST}`],
      ...['-addext', `subjectAltName=DNS:${RECEIVER_HOST},DNS:evil.test`],
    ],
    { stdio: 'ignore' },
  );
  const cert = readFileSync(certFile, 'utf8');
  const key = readFileSync(keyFile);
  rmSync(dir, { recursive: true, force: true });
  const received: ReceivedRequest[] = [];
  const plans = new Map<string, number[]>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const pathname = req.url ?? '/';
      received.push({
        method: req.method ?? '',
        path: pathname,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const plan = plans.get(pathname) ?? [];
      const status = plan.length > 1 ? plan.shift()! : (plan[0] ?? 200);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
    });
  });
  let connections = 0;
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    cert,
    received,
    connections: () => connections,
    url: (pathname) => `https://${RECEIVER_HOST}:${port}${pathname}`,
    respond: (pathname, statuses) => plans.set(pathname, [...statuses]),
    at: (pathname) => received.filter((r) => r.path === pathname),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A resolver with a mutable table (a name → address), for DNS that changes under a test. */
export function tableResolver(table: Record<string, string>): Resolver {
  return async (hostname) => {
    const address = table[hostname];
    if (!address) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
}

export const LOOPBACK_OK: OutboundPolicy = { allowPrivate: true };

export function outboundFor(
  receiver: Receiver,
  options: {
    policy?: OutboundPolicy;
    resolver?: Resolver;
    timeoutSeconds?: number;
    connectionsPerOrigin?: number;
  } = {},
): OutboundClient {
  return createOutboundClient({
    connectionsPerOrigin: options.connectionsPerOrigin,
    policy: options.policy ?? LOOPBACK_OK,
    timeoutSeconds: options.timeoutSeconds ?? 5,
    resolver: options.resolver ?? tableResolver({ [RECEIVER_HOST]: '127.0.0.1' }),
    extraCaCertificates: [receiver.cert],
    maxRedirects: 0,
  });
}

export const testSecretKey = () => randomBytes(32);

/**
 * A receiver and an outbound client that trusts it, for a whole test file: started before its tests,
 * closed after them.
 */
export function useReceiver(): { readonly receiver: Receiver; readonly outbound: OutboundClient } {
  let receiver: Receiver | undefined;
  let outbound: OutboundClient | undefined;
  beforeAll(async () => {
    receiver = await startReceiver();
    outbound = outboundFor(receiver);
  });
  afterAll(async () => {
    await outbound?.close();
    await receiver?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useReceiver: read in a test, after beforeAll');
    return value;
  };
  return {
    get receiver() {
      return started(receiver);
    },
    get outbound() {
      return started(outbound);
    },
  };
}

/** A new account with one endpoint on the receiver at `path` (its secret sealed with `secretKey`). */
export async function accountWithEndpoint(
  orm: MikroORM,
  receiver: Receiver,
  path: string,
  secretKey: Uint8Array,
) {
  const { accountId } = await accountWithToken(orm.em.fork());
  const { endpoint, secret } = await createEndpoint(
    orm.em.fork(),
    accountId,
    { url: receiver.url(path) },
    { policy: LOOPBACK_OK, resolver: tableResolver({ [RECEIVER_HOST]: '127.0.0.1' }), secretKey },
  );
  return { accountId, endpointId: endpoint.id, secret, path };
}

let nextEvent = 1_000_000 + Math.floor(Math.random() * 1000) * 1000;

/** A published event built directly (dispatchEvent needs no outbox row). */
export function publishedEvent(
  accountId: string,
  options: {
    type?: string;
    releaseId?: string | null;
    payload?: Record<string, unknown>;
    occurredAt?: Date;
  } = {},
): PublishedEvent {
  nextEvent += 1;
  const type = options.type ?? 'release.status_changed';
  const releaseId = options.releaseId === undefined ? randomUUID() : options.releaseId;
  const occurredAt = (options.occurredAt ?? new Date()).toISOString();
  return {
    cursor: nextEvent,
    id: nextEvent,
    accountId,
    releaseId,
    type,
    payload: {
      event: type,
      releaseId,
      title: 'Lights over the Harbor',
      artist: 'Lena Marlow',
      previousStatus: 'pending',
      status: 'delivered',
      storeStatuses: [{ storeId: 301, storeName: 'Store One', statusText: 'Delivered to DSP' }],
      artistProfiles: [],
      ...options.payload,
      occurredAt,
    },
    createdAt: occurredAt,
  };
}
