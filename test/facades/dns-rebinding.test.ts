import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';

const run = promisify(execFile);
const CONFORMANCE = 'node_modules/@modelcontextprotocol/conformance/dist/index.js';
const ALLOWED = 'https://studio.example.com';

/**
 * The conformance suite calls without a token, while /api/mcp requires one: the suite talks to a
 * loopback proxy that adds a personal access token and passes Host and Origin through untouched. The
 * proxy's URL is the app's PUBLIC_URL, as a reverse proxy's would be.
 */
describe('DNS-rebinding protection on /api/mcp', () => {
  let app: TestApp;
  let token = '';
  let publicUrl = '';
  const proxy = createServer((req, res) => {
    const upstream = new URL(app.url);
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    publicUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    app = await startTestApp({ PUBLIC_URL: publicUrl, MCP_ALLOWED_ORIGINS: ALLOWED });
    token = (await accountWithToken(app.em())).token;
  });
  afterAll(async () => {
    proxy.close();
    await app?.close();
  });

  const initialize = (headers: Record<string, string>) =>
    fetch(`${publicUrl}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });

  it('passes the MCP conformance scenario dns-rebinding-protection', async () => {
    const output = mkdtempSync(path.join(tmpdir(), 'conformance-'));
    try {
      const { stdout } = await run(
        process.execPath,
        [
          CONFORMANCE,
          'server',
          '--url',
          `${publicUrl}/api/mcp`,
          '--scenario',
          'dns-rebinding-protection',
          '-o',
          output,
        ],
        { timeout: 60_000 },
      );
      const files = readdirSync(output, { recursive: true }).map(String);
      const checksFile = files.find((file) => file.endsWith('checks.json'));
      const text = checksFile ? readFileSync(path.join(output, checksFile), 'utf8') : stdout;
      const checks = JSON.parse(text) as { id: string; status: string }[];
      expect(checks.map((check) => [check.id, check.status])).toEqual([
        ['localhost-host-rebinding-rejected', 'SUCCESS'],
        ['localhost-host-valid-accepted', 'SUCCESS'],
      ]);
    } finally {
      rmSync(output, { recursive: true, force: true });
    }
  }, 90_000);

  it('refuses a foreign Origin or Host with 403 and a JSON-RPC error', async () => {
    const foreignOrigin = await initialize({ origin: 'http://evil.example' });
    expect(foreignOrigin.status).toBe(403);
    expect(await foreignOrigin.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, data: { type: 'permission_error', code: 'origin_not_allowed' } },
    });
    const lookalike = await initialize({ origin: `${publicUrl}.evil.example` });
    expect(lookalike.status).toBe(403);
    const otherPort = await initialize({ origin: 'http://localhost:1' });
    expect(otherPort.status).toBe(403);
    const upload = await fetch(`${publicUrl}/api/mcp/upload`, {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
    });
    expect(upload.status).toBe(403);
  });

  it('accepts PUBLIC_URL (any loopback name), an allowlisted origin, and agents sending no Origin', async () => {
    const port = new URL(publicUrl).port;
    for (const origin of [publicUrl, `http://localhost:${port}`, ALLOWED, undefined]) {
      const response = await initialize(origin ? { origin } : {});
      expect(response.status, String(origin)).toBe(200);
    }
  });
  it('keeps each verdict apart on repeated calls: no Origin passes, an empty Origin is refused, alternately', async () => {
    for (let round = 0; round < 3; round++) {
      expect((await initialize({})).status).toBe(200);
      expect((await initialize({ origin: '' })).status).toBe(403);
      expect((await initialize({ origin: 'http://evil.example' })).status).toBe(403);
    }
  });
});
