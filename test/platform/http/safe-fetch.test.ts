import { execFileSync } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/platform/errors.ts';
import { asFetch } from '../../../src/platform/http/as-fetch.ts';
import {
  createOutboundClient,
  expectOk,
  type OutboundClient,
  type OutboundClientOptions,
  type Resolver,
} from '../../../src/platform/http/index.ts';
import { freePort, listen, startServer, type TestServer } from './servers.ts';

/** 127.0.0.2 plays "the internet"; 127.0.0.1 stays forbidden. */
const PUBLIC_HOST = '127.0.0.2';
const STRICT = { allowPrivate: false, allowAddresses: [PUBLIC_HOST] };

async function text(body: Readable): Promise<string> {
  return Buffer.concat(await body.toArray()).toString();
}

async function json(body: Readable): Promise<unknown> {
  return JSON.parse(await text(body));
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** Counts every connection undici starts (before any DNS lookup or TCP SYN). */
function watchConnects() {
  const state = { count: 0 };
  const onConnect = () => {
    state.count++;
  };
  subscribe('undici:client:beforeConnect', onConnect);
  return { state, stop: () => unsubscribe('undici:client:beforeConnect', onConnect) };
}

const clients: OutboundClient[] = [];
function client(options: Partial<OutboundClientOptions> = {}): OutboundClient {
  const created = createOutboundClient({ policy: STRICT, timeoutSeconds: 5, ...options });
  clients.push(created);
  return created;
}

let sentinel: TestServer;
let internet: TestServer;

beforeAll(async () => {
  // A forbidden server on 127.0.0.1 that must never see a request, and an allowed one on 127.0.0.2.
  sentinel = await startServer('127.0.0.1', (_req, res) => res.end('sentinel'));
  internet = await startServer(PUBLIC_HOST, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const location = url.searchParams.get('to');
    if (url.pathname === '/redirect' && location) {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location }).end();
    } else if (url.pathname === '/loop') {
      res.writeHead(302, { location: `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}` }).end();
    } else if (url.pathname === '/status') {
      res.writeHead(Number(url.searchParams.get('code')), { 'content-type': 'text/plain' }).end('status');
    } else if (url.pathname === '/echo') {
      const last = internet.requests.at(-1);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, headers: req.headers, body: last?.body.toString() }));
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello from ${PUBLIC_HOST}`);
    }
  });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sentinel.close();
  await internet.close();
});

beforeEach(() => {
  sentinel.requests.length = 0;
  sentinel.connections = 0;
  internet.requests.length = 0;
});

afterEach(() => {
  expect(sentinel.connections, 'the forbidden server was contacted').toBe(0);
});

describe('SSRF guard: literal addresses', () => {
  const cases: [string, string][] = [
    ['http://127.0.0.1:{sentinel}/', 'a loopback address (127.0.0.1)'],
    ['http://0.0.0.0:{sentinel}/', 'an unspecified address (0.0.0.0)'],
    ['http://10.1.2.3/', 'a private address (10.1.2.3)'],
    ['http://172.16.0.1/', 'a private address (172.16.0.1)'],
    ['http://192.168.0.1/', 'a private address (192.168.0.1)'],
    ['http://100.64.0.1/', 'a carrier-grade NAT (shared) address (100.64.0.1)'],
    ['http://169.254.1.1/', 'a link-local address (169.254.1.1)'],
    ['http://169.254.169.254/latest/meta-data/', 'a cloud metadata address (169.254.169.254)'],
    ['http://192.0.0.1/', 'a reserved address (192.0.0.1)'],
    ['http://192.0.2.1/', 'a documentation-only address (192.0.2.1)'],
    ['http://192.88.99.1/', 'a reserved address (192.88.99.1)'],
    ['http://198.18.0.1/', 'a benchmarking address (198.18.0.1)'],
    ['http://198.51.100.1/', 'a documentation-only address (198.51.100.1)'],
    ['http://203.0.113.1/', 'a documentation-only address (203.0.113.1)'],
    ['http://224.0.0.1/', 'a multicast address (224.0.0.1)'],
    ['http://240.0.0.1/', 'a reserved address (240.0.0.1)'],
    ['http://255.255.255.255/', 'a broadcast address (255.255.255.255)'],
    ['http://[::]:{sentinel}/', 'an unspecified address (::)'],
    ['http://[::1]:{sentinel}/', 'a loopback address (::1)'],
    ['http://[::ffff:127.0.0.1]:{sentinel}/', 'a loopback address (::ffff:7f00:1)'],
    ['http://[::ffff:7f00:1]:{sentinel}/', 'a loopback address (::ffff:7f00:1)'],
    ['http://[::ffff:169.254.169.254]/', 'a cloud metadata address (::ffff:a9fe:a9fe)'],
    ['http://[64:ff9b::a00:1]/', 'a private address (64:ff9b::a00:1)'],
    ['http://[2002:7f00:1::]/', 'a loopback address (2002:7f00:1::)'],
    ['http://[fc00::1]/', 'a private address (fc00::1)'],
    ['http://[fd00:ec2::254]/', 'a cloud metadata address (fd00:ec2::254)'],
    ['http://[fe80::1]/', 'a link-local address (fe80::1)'],
    ['http://[ff02::1]/', 'a multicast address (ff02::1)'],
    ['http://[2001:db8::1]/', 'a documentation-only address (2001:db8::1)'],
    ['http://[100::1]/', 'a reserved address (100::1)'],
    // Spellings WHATWG URL parsing normalises to 127.0.0.1 before the check.
    ['http://2130706433:{sentinel}/', 'a loopback address (127.0.0.1)'],
    ['http://0x7f.1:{sentinel}/', 'a loopback address (127.0.0.1)'],
    ['http://0x7f000001:{sentinel}/', 'a loopback address (127.0.0.1)'],
    ['http://017700000001:{sentinel}/', 'a loopback address (127.0.0.1)'],
    ['http://127.1:{sentinel}/', 'a loopback address (127.0.0.1)'],
    ['http://127.0.0.1.:{sentinel}/', 'a loopback address (127.0.0.1)'],
    ['http://127\u30020\u30020\u30021:{sentinel}/', 'a loopback address (127.0.0.1)'],
    ['http://0:{sentinel}/', 'an unspecified address (0.0.0.0)'],
    ['http://[0:0:0:0:0:ffff:127.0.0.1]:{sentinel}/', 'a loopback address (::ffff:7f00:1)'],
  ];

  it.each(cases)('refuses %s without connecting', async (template, described) => {
    const url = template.replace('{sentinel}', String(sentinel.port));
    const watch = watchConnects();
    try {
      const error = await failure(client().request(url, { fieldPath: 'sourceUrl' }));
      expect(error.type).toBe('invalid_request_error');
      expect(error.code).toBe('url_not_allowed');
      expect(error.message).toContain(`points to ${described}`);
      expect(error.details).toEqual([{ path: 'sourceUrl', message: error.message }]);
      expect(watch.state.count, 'a connection was attempted').toBe(0);
    } finally {
      watch.stop();
    }
  });

  it('reaches 127.0.0.1 with allowPrivate (OUTBOUND_ALLOW_PRIVATE=true)', async () => {
    const watch = watchConnects();
    const response = await client({ policy: { allowPrivate: true } })
      .request(sentinel.url('/'))
      .finally(watch.stop);
    expect(watch.state.count, 'the connection watch sees connections').toBe(1);
    expect(response.status).toBe(200);
    expect(await text(response.body)).toBe('sentinel');
    expect(sentinel.requests).toHaveLength(1);
    sentinel.connections = 0; // expected here
  });

  it('keeps cloud metadata refused even with allowPrivate', async () => {
    const error = await failure(
      client({ policy: { allowPrivate: true } }).request('http://169.254.169.254/'),
    );
    expect(error.code).toBe('url_not_allowed');
  });
});

describe('SSRF guard: host names', () => {
  const records: Record<string, string[]> = {
    'evil.test': ['10.0.0.1'],
    'loop.test': ['127.0.0.1'],
    'mixed.test': [PUBLIC_HOST, '127.0.0.1'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'meta.test': ['169.254.169.254'],
    'public.test': [PUBLIC_HOST],
  };
  const calls: string[] = [];
  const resolver: Resolver = async (hostname) => {
    calls.push(hostname);
    const addresses = records[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it.each([
    ['evil.test', 'resolves to a private address (10.0.0.1)'],
    ['loop.test', 'resolves to a loopback address (127.0.0.1)'],
    ['mixed.test', 'resolves to a loopback address (127.0.0.1)'],
    ['mapped.test', 'resolves to a loopback address (::ffff:127.0.0.1)'],
    ['meta.test', 'resolves to a cloud metadata address (169.254.169.254)'],
  ])('refuses %s, which %s', async (host, described) => {
    const error = await failure(client({ resolver }).request(`http://${host}:${sentinel.port}/`));
    expect(error.type).toBe('invalid_request_error');
    expect(error.code).toBe('url_not_allowed');
    expect(error.message).toContain(`The URL host ${host} ${described}`);
    expect(error.details?.[0]?.path).toBe('url');
  });

  it('connects to a name resolving to allowed addresses', async () => {
    const response = await client({ resolver }).request(`http://public.test:${internet.port}/`);
    expect(response.status).toBe(200);
    expect(internet.requests[0]?.headers.host).toBe(`public.test:${internet.port}`);
    response.dispose();
  });

  it('resolves once and connects to the address it checked (no DNS rebinding)', async () => {
    // The same port on both addresses: a second resolution would land on the forbidden sentinel.
    const allowed = await startServer(PUBLIC_HOST, (_req, res) => res.end('checked address'));
    const forbidden = await startServer('127.0.0.1', (_req, res) => res.end('rebound!'), allowed.port).catch(
      () => undefined,
    );
    let lookups = 0;
    const rebinding: Resolver = async () => {
      lookups++;
      return [{ address: lookups === 1 ? PUBLIC_HOST : '127.0.0.1', family: 4 }];
    };
    try {
      const response = await client({ resolver: rebinding }).request(`http://rebind.test:${allowed.port}/`);
      expect(await text(response.body)).toBe('checked address');
      expect(lookups).toBe(1);
      expect(forbidden?.connections ?? 0).toBe(0);
      // A new connection resolves again, and the rebound answer is refused.
      const error = await failure(
        client({ resolver: rebinding }).request(`http://rebind.test:${allowed.port}/`),
      );
      expect(error.code).toBe('url_not_allowed');
      expect(forbidden?.connections ?? 0).toBe(0);
    } finally {
      await allowed.close();
      await forbidden?.close();
    }
  });

  it('reports a name that does not resolve as url_unresolvable', async () => {
    const error = await failure(
      client({ resolver }).request('http://nowhere.test/', { fieldPath: 'source.url' }),
    );
    expect(error.type).toBe('invalid_request_error');
    expect(error.code).toBe('url_unresolvable');
    expect(error.details?.[0]?.path).toBe('source.url');
    const empty = await failure(client({ resolver: async () => [] }).request('http://empty.test/'));
    expect(empty.code).toBe('url_unresolvable');
  });

  it('refuses a redirect to a name resolving to a forbidden address', async () => {
    const to = `http://loop.test:${sentinel.port}/`;
    const error = await failure(
      client({ resolver }).request(internet.url(`/redirect?to=${encodeURIComponent(to)}`)),
    );
    expect(error.code).toBe('url_not_allowed');
    expect(error.message).toContain('redirected');
    expect(calls).toContain('loop.test');
  });
});

describe('URL rules', () => {
  it.each(['file:///etc/passwd', 'ftp://example.com/a', 'gopher://example.com/', 'data:text/plain,hi'])(
    'refuses the scheme of %s',
    async (url) => {
      const error = await failure(client().request(url));
      expect(error.type).toBe('invalid_request_error');
      expect(error.code).toBe('unsupported_url_scheme');
      expect(error.details?.[0]?.path).toBe('url');
    },
  );

  it('refuses URLs with credentials', async () => {
    for (const url of [`http://user:pass@${PUBLIC_HOST}:${internet.port}/`, `http://user@${PUBLIC_HOST}/`]) {
      const error = await failure(client().request(url));
      expect(error.code).toBe('url_not_allowed');
      expect(error.message).toContain('credentials');
    }
    expect(internet.requests).toHaveLength(0);
  });

  it('refuses what is not an absolute URL', async () => {
    const error = await failure(client().request('not a url'));
    expect(error.code).toBe('invalid_url');
  });
});

describe('redirects', () => {
  it('follows a chain, re-checking each hop', async () => {
    const final = '/final';
    const hop2 = `/redirect?status=301&to=${encodeURIComponent(final)}`;
    const hop1 = `/redirect?status=307&to=${encodeURIComponent(hop2)}`;
    const response = await client().request(internet.url(`/redirect?to=${encodeURIComponent(hop1)}`));
    expect(response.status).toBe(200);
    expect(response.url).toBe(internet.url(final));
    expect(response.redirects).toBe(3);
    expect(await text(response.body)).toBe(`hello from ${PUBLIC_HOST}`);
  });

  it("with redirect 'manual' hands the 3xx back unfollowed; with 'error' refuses it; asFetch passes fetch's", async () => {
    const manual = await client().request(internet.url('/redirect?status=302&to=%2Ffinal'), {
      redirect: 'manual',
    });
    expect(manual.status).toBe(302);
    expect(manual.headers.location).toBe('/final');
    expect(manual.redirects).toBe(0);
    manual.dispose();
    const refused = await failure(
      client().request(internet.url('/redirect?status=302&to=%2Ffinal'), { redirect: 'error' }),
    );
    expect(refused.code).toBe('redirect_not_followed');
    const viaFetch = await asFetch(client())(internet.url('/redirect?status=302&to=%2Ffinal'), {
      redirect: 'manual',
    });
    expect(viaFetch.status).toBe(302);
    expect(viaFetch.headers.get('location')).toBe('/final');
    await viaFetch.body?.cancel();
    expect(internet.requests).toHaveLength(3);
  });

  it('refuses a redirect from an allowed server into 127.0.0.1', async () => {
    const to = sentinel.url('/admin');
    const error = await failure(
      client().request(internet.url(`/redirect?to=${encodeURIComponent(to)}`), { fieldPath: 'file_url' }),
    );
    expect(error.type).toBe('invalid_request_error');
    expect(error.code).toBe('url_not_allowed');
    expect(error.message).toMatch(/redirected.*loopback address \(127\.0\.0\.1\)/);
    expect(error.details?.[0]?.path).toBe('file_url');
    expect(internet.requests).toHaveLength(1);
  });

  it('refuses a redirect to another scheme', async () => {
    const error = await failure(client().request(internet.url('/redirect?to=file%3A%2F%2F%2Fetc%2Fpasswd')));
    expect(error.code).toBe('unsupported_url_scheme');
  });

  it('gives up after maxRedirects', async () => {
    const error = await failure(client({ maxRedirects: 5 }).request(internet.url('/loop')));
    expect(error.type).toBe('upstream_error');
    expect(error.code).toBe('too_many_redirects');
    expect(internet.requests).toHaveLength(6);
  });

  it('turns POST into GET on 303 and keeps method and body on 307/308', async () => {
    const options = { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } };
    const see = await client().request(internet.url('/redirect?status=303&to=%2Fecho'), options);
    const seen = (await json(see.body)) as { method: string; body: string; headers: Record<string, string> };
    expect(seen.method).toBe('GET');
    expect(seen.body).toBe('');
    expect(seen.headers['content-type']).toBeUndefined();

    for (const status of [307, 308]) {
      const kept = await client().request(internet.url(`/redirect?status=${status}&to=%2Fecho`), options);
      const echoed = (await json(kept.body)) as { method: string; body: string };
      expect(echoed).toMatchObject({ method: 'POST', body: '{"a":1}' });
    }
  });

  it('drops credentials when a redirect leaves the origin', async () => {
    const resolver: Resolver = async () => [{ address: PUBLIC_HOST, family: 4 }];
    const to = `http://other.test:${internet.port}/echo`;
    const response = await client({ resolver }).request(
      internet.url(`/redirect?to=${encodeURIComponent(to)}`),
      {
        headers: { authorization: 'Bearer secret', 'x-trace': 'kept' },
      },
    );
    const seen = (await json(response.body)) as { headers: Record<string, string> };
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers['x-trace']).toBe('kept');
  });
});

describe('requests and responses', () => {
  it('sends a POST body and headers intact', async () => {
    const body = JSON.stringify({ event: 'release.delivered', id: 'é✓' });
    const response = await client().request(internet.url('/echo'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 't=1,v1=abc' },
      body,
    });
    expect(response.status).toBe(200);
    const seen = (await json(response.body)) as {
      method: string;
      body: string;
      headers: Record<string, string>;
    };
    expect(seen.method).toBe('POST');
    expect(seen.body).toBe(body);
    expect(seen.headers['x-signature']).toBe('t=1,v1=abc');
    expect(seen.headers['content-type']).toBe('application/json');
  });

  it('returns non-2xx statuses; expectOk turns them into upstream_status', async () => {
    const response = await client().request(internet.url('/status?code=404'));
    expect(response.status).toBe(404);
    const error = await failure(Promise.resolve().then(() => expectOk(response, 'The file URL')));
    expect(error.type).toBe('upstream_error');
    expect(error.code).toBe('upstream_status');
    expect(error.message).toContain('404');
    const ok = await client().request(internet.url('/status?code=204'));
    expect(expectOk(ok, 'The file URL')).toBe(ok);
    ok.dispose();
  });

  it('discardBodyBytes: reads a short body to its end and keeps the connection; a longer one is not read', async () => {
    const size = (path: string) => Number(new URL(path, 'http://x').searchParams.get('bytes'));
    const bodies = await startServer(PUBLIC_HOST, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(size(req.url ?? '/')));
    });
    try {
      const discarding = client();
      const send = async (bytes: number) => {
        const response = await discarding.request(bodies.url(`/?bytes=${bytes}`), {
          method: 'POST',
          body: '{}',
          discardBodyBytes: 1024,
        });
        expect(response.status).toBe(200);
        expect(response.body.readableEnded || response.body.destroyed).toBe(true);
        // undici puts the connection back in its pool a tick after the body ends (also when read).
        await new Promise((resolve) => setTimeout(resolve, 10));
      };
      await send(500);
      await send(500);
      expect(bodies.connections).toBe(1);
      // Past the limit the body is not read: its connection is closed, not reused.
      await send(200_000);
      await send(500);
      expect(bodies.connections).toBeGreaterThan(1);
    } finally {
      await bodies.close();
    }
  });

  it('streams a large body without buffering it', async () => {
    const chunk = Buffer.alloc(64 * 1024, 7);
    const total = 20 * 1024 * 1024;
    const big = await startServer(PUBLIC_HOST, async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let sent = 0; sent < total; sent += chunk.length) {
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    });
    try {
      const response = await client().request(big.url('/'));
      let bytes = 0;
      for await (const piece of response.body) bytes += (piece as Buffer).length;
      expect(bytes).toBe(total);
    } finally {
      await big.close();
    }
  });

  it('times out waiting for headers within the configured seconds', async () => {
    const silent = await startServer(PUBLIC_HOST, () => {});
    try {
      const started = Date.now();
      const error = await failure(client({ timeoutSeconds: 1 }).request(silent.url('/')));
      const elapsed = Date.now() - started;
      expect(error.type).toBe('upstream_error');
      expect(error.code).toBe('upstream_timeout');
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(2500);
    } finally {
      await silent.close();
    }
  });

  it('times out a body that stops arriving', async () => {
    const stalling = await startServer(PUBLIC_HOST, (_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
    });
    try {
      const response = await client({ timeoutSeconds: 1 }).request(stalling.url('/'));
      const error = await failure(response.body.toArray());
      expect(error.code).toBe('upstream_timeout');
    } finally {
      await stalling.close();
    }
  });

  it('reports a refused connection as upstream_unreachable', async () => {
    const port = await freePort(PUBLIC_HOST);
    const error = await failure(client().request(`http://${PUBLIC_HOST}:${port}/`));
    expect(error.type).toBe('upstream_error');
    expect(error.code).toBe('upstream_unreachable');
  });

  it('stops when the caller aborts', async () => {
    const silent = await startServer(PUBLIC_HOST, () => {});
    try {
      const controller = new AbortController();
      const reason = new Error('caller gave up');
      setTimeout(() => controller.abort(reason), 100);
      const error = await client()
        .request(silent.url('/'), { signal: controller.signal })
        .catch((e: unknown) => e);
      expect(error).toBe(reason);
    } finally {
      await silent.close();
    }
  });
});

function openssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!openssl())('HTTPS', () => {
  let dir: string;
  let cert: string;
  let server: ReturnType<typeof createHttpsServer>;
  let port: number;
  const resolver: Resolver = async () => [{ address: PUBLIC_HOST, family: 4 }];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tributary-tls-'));
    const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
        ...['-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=secure.test'],
        ...['-addext', 'subjectAltName=DNS:secure.test'],
      ],
      { stdio: 'ignore' },
    );
    cert = readFileSync(certFile, 'utf8');
    server = createHttpsServer({ key: readFileSync(keyFile), cert }, (_req, res) => res.end('secure'));
    port = await listen(server, PUBLIC_HOST);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a self-signed certificate by default', async () => {
    const error = await failure(client({ resolver }).request(`https://secure.test:${port}/`));
    expect(error.type).toBe('upstream_error');
    expect(error.code).toBe('upstream_tls_failed');
  });

  it('verifies against added CA certificates, host name included', async () => {
    const trusting = client({ resolver, extraCaCertificates: [cert] });
    const response = await trusting.request(`https://secure.test:${port}/`);
    expect(await text(response.body)).toBe('secure');
    const wrongName = await failure(trusting.request(`https://other.test:${port}/`));
    expect(wrongName.code).toBe('upstream_tls_failed');
  });
});
