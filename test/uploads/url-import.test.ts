import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { imageBytes } from '../support/media.ts';

/** A file host on loopback: /cover.png, /redirect → /cover.png, /missing → 404. */
async function fileHost() {
  const png = await imageBytes(1500, 1500);
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    if (req.url === '/cover.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      res.end(png);
    } else if (req.url === '/redirect') {
      res.writeHead(302, { location: '/cover.png' });
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () => server.close(),
  };
}

describe('import from URL, local development switch on (OUTBOUND_ALLOW_PRIVATE=true)', () => {
  const app = useTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' });
  let host: Awaited<ReturnType<typeof fileHost>>;
  beforeAll(async () => {
    host = await fileHost();
  });
  afterAll(() => host.close());

  it('streams the file, follows redirects, names it from the URL, and reports upstream failures', async () => {
    const account = await accountWithToken(app().em());
    const imported = await request(app().url, 'POST', '/v1/files/from-url', {
      token: account.token,
      body: { type: 'coverArt', url: `${host.url}/redirect` },
    });
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ type: 'coverArt', width: 3000, height: 3000 });
    expect(imported.body.fileName).toMatch(/^cover-[0-9a-f]{8}\.png$/);
    const missing = await request(app().url, 'POST', '/v1/files/from-url', {
      token: account.token,
      body: { type: 'coverArt', url: `${host.url}/missing`, file_name: 'x.png' },
    });
    expect(missing.status).toBe(502);
    expect(missing.body).toMatchObject({ type: 'upstream_error', code: 'upstream_status' });
    const rpc = await request(app().url, 'POST', '/api/mcp', {
      token: account.token,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'upload_file_from_url',
          arguments: { type: 'coverArt', url: `${host.url}/cover.png` },
        },
      },
    });
    const result = JSON.parse(rpc.body.result.content[0].text);
    expect(result.fileUrl).toMatch(new RegExp(`^/api/files/cover-art/${account.accountId}/cover-`));
  });
});

describe('import from URL, default configuration (SSRF guard on)', () => {
  const app = useTestApp();
  let host: Awaited<ReturnType<typeof fileHost>>;
  beforeAll(async () => {
    host = await fileHost();
  });
  afterAll(() => host.close());

  it('refuses loopback, private, link-local, metadata and mapped addresses without connecting', async () => {
    const account = await accountWithToken(app().em());
    const before = host.hits();
    for (const url of [
      `${host.url}/cover.png`,
      'http://localhost/x.png',
      'http://10.1.2.3/x.png',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:127.0.0.1]/x.png',
      'http://100.64.0.1/x.png',
      'ftp://example.com/x.png',
    ]) {
      const response = await request(app().url, 'POST', '/v1/files/from-url', {
        token: account.token,
        body: { type: 'coverArt', url },
      });
      expect(response.status, url).toBe(400);
      expect(response.body.type, url).toBe('invalid_request_error');
      expect(response.body.details?.[0]?.path, url).toBe('url');
    }
    expect(host.hits()).toBe(before);
  });
});
