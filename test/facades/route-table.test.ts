import { createServer, type Server } from 'node:http';
import express, { type ErrorRequestHandler, type Request, type Response } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { RouteTable } from '../../facades/route-table.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

const answerError: ErrorRequestHandler = (error, _req, res, _next) => {
  res.status(500).json({ caught: String((error as Error).message) });
};

/** Where a request was answered, and what its handlers saw of it. */
const describeRequest = (answeredBy: string) => (req: Request, res: Response) => {
  res.json({
    answeredBy,
    params: req.params,
    baseUrl: req.baseUrl,
    url: req.url,
    originalUrl: req.originalUrl,
    query: req.query,
    requestId: res.locals.requestId,
    ip: req.ip,
  });
};

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** A table with a few rows, in front of an express app that routes the same paths (marked 'express'). */
async function tableServer(born = false): Promise<string> {
  const first = (_req: Request, res: Response, next: () => void) => {
    res.locals.requestId = 'from-first';
    next();
  };
  const table = new RouteTable(['/reserved'], first, [answerError]);
  const http = express();
  http.set('trust proxy', 'loopback');
  const api = express.Router();
  api.get('/things/:id', describeRequest('express'));
  api.get('/things/:id/parts', describeRequest('express'));
  http.use('/v9', api);
  table.add({ method: 'GET', mount: '/v9', path: '/things/:id', handlers: [describeRequest('table')] });
  table.add({
    method: 'GET',
    mount: '/v9',
    path: '/throws',
    handlers: [
      () => {
        throw new Error('sync throw');
      },
    ],
  });
  table.add({
    method: 'GET',
    mount: '/v9',
    path: '/rejects',
    handlers: [async () => Promise.reject(new Error('rejected'))],
  });
  table.add({ method: 'GET', mount: '/v9', path: '/falls-through', handlers: [(_q, _s, next) => next()] });
  table.add({
    method: 'POST',
    mount: '/v9',
    path: '/',
    handlers: [(req: Request, res: Response) => res.json({ baseUrl: req.baseUrl, url: req.url })],
  });
  server = born ? table.createServer(http) : createServer(table.listener(http));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as { port: number }).port}`;
}

describe('the route table ahead of express', () => {
  it.each([
    ['adopting express’s prototypes per request', false],
    ['on a server whose requests are born with them', true],
  ])(
    'runs a row with what express would give its handlers: params, mount, url, query, locals, ip (%s)',
    async (_how, born) => {
      const url = await tableServer(born);
      const answer = await (await fetch(`${url}/v9/things/a1?limit=2&tag=x`)).json();
      expect(answer).toEqual({
        answeredBy: 'table',
        params: { id: 'a1' },
        baseUrl: '/v9',
        url: '/things/a1?limit=2&tag=x',
        originalUrl: '/v9/things/a1?limit=2&tag=x',
        query: { limit: '2', tag: 'x' },
        requestId: 'from-first',
        ip: '127.0.0.1',
      });
      const mountRoot = await (await fetch(`${url}/v9`, { method: 'POST' })).json();
      expect(mountRoot).toEqual({ baseUrl: '/v9', url: '/' });
    },
  );

  it('answers HEAD with the GET row, without a body', async () => {
    const url = await tableServer();
    const head = await fetch(`${url}/v9/things/a1`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
  });

  it.each([false, true])(
    'leaves to express what it would not match exactly: a trailing slash, another case, an escape (born: %s)',
    async (born) => {
      const url = await tableServer(born);
      for (const path of ['/v9/things/a1/', '/V9/things/a1', '/v9/things/a%31', '/v9/things/a1/parts']) {
        const answer = (await (await fetch(`${url}${path}`)).json()) as { answeredBy: string };
        expect(answer.answeredBy, path).toBe('express');
      }
      const decoded = (await (await fetch(`${url}/v9/things/a%31`)).json()) as { params: object };
      expect(decoded.params).toEqual({ id: 'a1' });
    },
  );

  it('sends a thrown error, a rejection and a chain that never answers to the error handlers', async () => {
    const url = await tableServer();
    expect(await (await fetch(`${url}/v9/throws`)).json()).toEqual({ caught: 'sync throw' });
    expect(await (await fetch(`${url}/v9/rejects`)).json()).toEqual({ caught: 'rejected' });
    const unanswered = (await (await fetch(`${url}/v9/falls-through`)).json()) as { caught: string };
    expect(unanswered.caught).toMatch(/No handler answered GET \/v9\/falls-through/);
  });

  it('refuses rows that express would route elsewhere', () => {
    const table = new RouteTable(['/reserved', '/v9/payments'], (_q, _s, next) => next(), []);
    const row = { method: 'GET' as const, handlers: [] };
    expect(() => table.add({ ...row, mount: '/reserved', path: '/x' })).toThrow(/under \/reserved/);
    expect(() => table.add({ ...row, mount: '/v9', path: '/payments/events' })).toThrow(
      /under \/v9\/payments/,
    );
    table.add({ ...row, mount: '/v9', path: '/releases/:id' });
    // Express would answer /releases/quote with the earlier /releases/:id; the tree would not.
    expect(() => table.add({ ...row, mount: '/v9', path: '/releases/quote' })).toThrow(/shadowed by/);
    table.add({ ...row, method: 'POST', mount: '/v9', path: '/releases/quote' });
  });
});

describe('the route table in the server', () => {
  const app = useTestApp();

  it('answers a row and its variants that express routes alike', async () => {
    const { token } = await accountWithToken(app().em());
    const plain = await request(app().url, 'GET', '/v1/me', { token });
    expect(plain.status).toBe(200);
    for (const path of ['/v1/me/', '/V1/ME', '/v1/me?unused=1']) {
      const variant = await request(app().url, 'GET', path, { token });
      expect(variant.status, path).toBe(200);
      expect(variant.body, path).toEqual(plain.body);
    }
  });

  it('reads a row’s JSON body through the same parser: a broken body is 400 invalid_json', async () => {
    const { token } = await accountWithToken(app().em());
    const broken = await request(app().url, 'POST', '/v1/releases', { token, rawBody: '{"release": ' });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('invalid_json');
    expect(typeof broken.body.requestId).toBe('string');
  });

  it('keeps the origin guard on the agent’s rows', async () => {
    const { token } = await accountWithToken(app().em());
    for (const [method, path] of [
      ['GET', '/api/mcp/releases'],
      ['POST', '/api/mcp'],
    ] as const) {
      const refused = await fetch(`${app().url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, origin: 'http://evil.example' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      expect(refused.status, path).toBe(403);
      expect(((await refused.json()) as { error: { data: { code: string } } }).error.data.code).toBe(
        'origin_not_allowed',
      );
    }
  });
});
