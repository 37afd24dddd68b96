/**
 * The dashboard's assets and documents over HTTP: the scripts and stylesheet under /dashboard/assets
 * (immutable, brotli or gzip by Accept-Encoding), and the dashboard's trusted documents, which run by
 * documentId (GET for queries, POST for mutations) even when only trusted documents may.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DashboardReleaseEventsDocument } from '../../packages/dashboard/src/generated/graphql.ts';
import { useTestApp } from '../support/app.ts';
import { bootOf, signInOverHttp } from '../support/dashboard.ts';
import { graphql, request } from '../support/http.ts';
import { accountWithPassword, browse } from '../support/oauth.ts';
import { waitFor } from '../support/wait.ts';

const DASHBOARD_MANIFEST = path.resolve('packages/dashboard/src/generated/persisted-documents.json');
const CLIENT_MANIFEST = path.resolve('packages/client/src/generated/graphql/persisted-documents.json');

/** One GET with exactly these headers, its body's bytes as sent (fetch would decompress them). */
function rawGet(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The id of the dashboard's document whose text starts with `start`. */
function dashboardDocument(start: string): string {
  const manifest = JSON.parse(readFileSync(DASHBOARD_MANIFEST, 'utf8')) as Record<string, string>;
  const found = Object.entries(manifest).find(([, text]) => text.startsWith(start));
  if (!found) throw new Error(`no dashboard document starts with ${start}`);
  return found[0];
}

describe('dashboard assets', () => {
  const app = useTestApp();

  async function pageAssets() {
    const account = await accountWithPassword(app().em(), `assets-${Date.now()}@example.com`);
    const { jar } = await signInOverHttp(app().url, account);
    const page = await browse(jar, `${app().url}/dashboard/credits`);
    const script = /<script type="module" src="([^"]+)"><\/script>/.exec(page.body)?.[1];
    const stylesheet = /<link rel="stylesheet" href="([^"]+)">/.exec(page.body)?.[1];
    const preloads = [...page.body.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]!);
    return { script: script!, stylesheet: stylesheet!, preloads };
  }

  it('serves each script and the stylesheet immutable for a year, under a name that hashes its content', async () => {
    const { script, stylesheet, preloads } = await pageAssets();
    expect(script).toMatch(/^\/dashboard\/assets\/credits\.[a-z0-9]{8}\.js$/);
    expect(stylesheet).toMatch(/^\/dashboard\/assets\/dashboard\.[0-9a-f]{12}\.css$/);
    for (const [file, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [stylesheet, 'text/css; charset=utf-8'],
      ...preloads.map((p) => [p, 'text/javascript; charset=utf-8']),
    ] as const) {
      const plain = await rawGet(`${app().url}${file}`, { 'accept-encoding': 'identity' });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-type']).toBe(type);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    }
    // Served without a session: assets hold no one's data.
    expect((await rawGet(`${app().url}${script}`, {})).status).toBe(200);
  });

  it('chooses brotli or gzip by Accept-Encoding, the same bytes once decompressed', async () => {
    const { script, preloads } = await pageAssets();
    // The largest of the page's files: the code pages share is split into chunks of its own.
    const files = await Promise.all(
      [script, ...preloads].map(async (file) => ({
        url: `${app().url}${file}`,
        plain: (await rawGet(`${app().url}${file}`, { 'accept-encoding': 'identity' })).body,
      })),
    );
    const { url, plain } = files.sort((a, b) => b.plain.length - a.plain.length)[0]!;
    expect(plain.toString('utf8')).toMatch(/^[\s\S]*document/);

    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.length);

    const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain)).toBe(true);

    const preferred = await rawGet(url, { 'accept-encoding': 'br;q=0.5, gzip;q=1' });
    expect(preferred.headers['content-encoding']).toBe('gzip');
    const refused = await rawGet(url, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(plain)).toBe(true);
    const none = await rawGet(url, {});
    expect(none.headers['content-encoding']).toBeUndefined();

    const head = await rawGet(url, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBe(br.body.length);
  });

  it('an asset no build made is 404, never cached', async () => {
    const missing = await rawGet(`${app().url}/dashboard/assets/credits.00000000.js`, {});
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });
});

// With a manifest of the operator's (the client's here) or none: the dashboard's documents are trusted either way.
describe.each([
  ['with the client’s manifest', { GRAPHQL_DOCUMENTS_FILE: CLIENT_MANIFEST }],
  ['with no manifest', {}],
])('dashboard documents when only trusted documents run, %s', (_, manifest) => {
  const app = useTestApp({ GRAPHQL_TRUSTED_DOCUMENTS_ONLY: 'true', ...manifest });

  it('runs the dashboard’s queries by GET and its mutations by POST with their documentId; refuses other texts', async () => {
    const account = await accountWithPassword(app().em(), 'trusted@example.com');
    const { jar } = await signInOverHttp(app().url, account);
    const { token } = bootOf((await browse(jar, `${app().url}/dashboard/credits`)).body);
    const accept = { accept: 'application/graphql-response+json, application/json' };

    const overview = dashboardDocument('query CreditsOverview');
    const query = await request(
      app().url,
      'GET',
      `/graphql?${new URLSearchParams({ documentId: overview })}`,
      {
        token,
        headers: accept,
      },
    );
    expect(query.status).toBe(200);
    expect(query.body.data.credits.balance).toBe(0);
    expect(query.headers.get('etag')).toBeTruthy();
    const again = await request(
      app().url,
      'GET',
      `/graphql?${new URLSearchParams({ documentId: overview })}`,
      {
        token,
        headers: { ...accept, 'if-none-match': query.headers.get('etag')! },
      },
    );
    expect(again.status).toBe(304);

    const buy = dashboardDocument('mutation BuyCredits');
    const mutation = await request(app().url, 'POST', '/graphql', {
      token,
      headers: { ...accept, origin: app().url },
      body: { documentId: buy, variables: { packageId: 'credits_10', successPath: '/dashboard/credits' } },
    });
    expect(mutation.status).toBe(200);
    expect(mutation.body.data.createCreditCheckout.url).toMatch(/\/sandbox\/checkout\//);

    const text = await graphql(app().url, '{ me { email } }', undefined, token);
    expect(text.status).toBe(403);
    expect(text.body.errors?.[0]?.extensions?.code).toBe('trusted_documents_only');
  });

  it('takes the dashboard’s subscription over graphql-ws as the browser sends it, and refuses another text', async () => {
    const account = await accountWithPassword(app().em(), 'live@example.com');
    const { jar } = await signInOverHttp(app().url, account);
    const { token } = bootOf((await browse(jar, `${app().url}/dashboard/credits`)).body);
    const client = createClient({
      url: `${app().url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
    });
    const events: { type: string; test: boolean }[] = [];
    const errors: unknown[] = [];
    const sink = (into: unknown[]) => ({
      next: (result: { data?: unknown; errors?: unknown }) =>
        result.data
          ? into.push((result.data as { releaseEvents: unknown }).releaseEvents)
          : errors.push(result.errors),
      error: (error: unknown) => errors.push(error),
      complete: () => {},
    });
    const untrusted: unknown[] = [];
    client.subscribe(
      { query: 'subscription { releaseEvents { id } }' },
      {
        next: () => {},
        error: (error) => untrusted.push(error),
        complete: () => {},
      },
    );
    client.subscribe({ query: String(DashboardReleaseEventsDocument), variables: {} }, sink(events));
    await waitFor(
      async () => untrusted,
      (seen) => seen.length > 0,
      5000,
    );
    expect(JSON.stringify(untrusted)).toContain('trusted_documents_only');

    const triggered = await request(app().url, 'POST', '/v1/sandbox/events', {
      token,
      body: { type: 'release.status_changed' },
    });
    expect(triggered.status).toBe(201);
    await waitFor(
      async () => events,
      (seen) => seen.length > 0,
      5000,
    );
    expect(events[0]).toMatchObject({ type: 'RELEASE_STATUS_CHANGED', test: true });
    expect(errors).toEqual([]);
    await client.dispose();
  });
});
