import { AsyncLocalStorage } from 'node:async_hooks';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_BODY_BYTES, smallBodyLength } from '../../facades/small-json-body.ts';
import { jsonBody, transportError } from '../../facades/transport-errors.ts';

// The small-body reader and express.json side by side: the same body, once with a Content-Length (read
// by the small-body reader) and once chunked (which only express.json reads), must get the same answer.
let url: string;
let close: () => void;
const scope = new AsyncLocalStorage<unknown>();

beforeAll(async () => {
  const app = express();
  const echo = (req: Request, res: Response) => {
    res.json({ body: req.body === undefined ? '<undefined>' : req.body });
  };
  app.post('/strict', jsonBody({ limit: '6mb' }), echo);
  // The handlers after the body keep the request's async context (its scope: request id, limits).
  app.post(
    '/scoped',
    (req, res, next) => scope.run(req.headers['x-scope'], next),
    jsonBody({ limit: '6mb' }),
    (_req, res) => {
      res.json({ scope: scope.getStore() ?? null });
    },
  );
  app.post('/any', jsonBody({ limit: '6mb', strict: false, type: () => true }), echo);
  app.post(
    '/not-empty',
    jsonBody({ limit: '6mb', strict: false, type: () => true }, { emptyIsInvalid: true }),
    echo,
  );
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const refusal = transportError(error);
    res.status(400).json({ refused: refusal?.code ?? 'unexpected' });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close());

/** Posts `body` with a Content-Length, or chunked (no length), and returns status and answer text. */
function post(path: string, body: Buffer, headers: Record<string, string>, chunked: boolean) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = httpRequest(`${url}${path}`, {
      method: 'POST',
      headers: chunked ? headers : { ...headers, 'content-length': String(body.length) },
    });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    if (chunked) {
      // Two writes: a chunked body with no Content-Length at all.
      request.write(body.subarray(0, 1));
      request.end(body.subarray(1));
    } else request.end(body);
  });
}

const bodies: [string, Buffer][] = [
  ['an object', Buffer.from('{"a":1,"b":[true,null,"x"]}')],
  ['an array', Buffer.from('[1,2,3]')],
  ['leading whitespace', Buffer.from(' \r\n\t{"a":1}')],
  ['a byte-order mark', Buffer.from('\uFEFF{"a":"bom"}')],
  ['only a byte-order mark', Buffer.from('\uFEFF')],
  ['a string (strict refuses it)', Buffer.from('"text"')],
  ['a number', Buffer.from('42')],
  ['broken JSON', Buffer.from('{"a":')],
  ['too deep', Buffer.from(`${'['.repeat(65)}${']'.repeat(65)}`)],
  ['non-ASCII text', Buffer.from('{"title":"Dvořák – Ünïcödé 🎵"}')],
  ['an invalid UTF-8 byte', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
  ['the largest small body', Buffer.from(`{"a":"${'x'.repeat(SMALL_BODY_BYTES - 8)}"}`)],
  ['one byte over', Buffer.from(`{"a":"${'x'.repeat(SMALL_BODY_BYTES - 7)}"}`)],
];

const types: Record<string, string>[] = [
  { 'content-type': 'application/json' },
  { 'content-type': 'Application/JSON; Charset=UTF-8' },
  { 'content-type': 'text/plain' },
  { 'content-type': 'application/json; charset=latin1' },
  {},
];

describe('a small JSON body read without express.json', () => {
  for (const path of ['/strict', '/any', '/not-empty']) {
    for (const headers of types) {
      it.each(bodies)(
        `${path}, ${headers['content-type'] ?? 'no Content-Type'}: %s as express.json reads it`,
        async (_name, body) => {
          const small = await post(path, body, headers, false);
          const general = await post(path, body, headers, true);
          expect(small).toEqual(general);
        },
      );
    }
  }

  it('runs the next handler in the async context the body was read in', async () => {
    for (const chunked of [false, true]) {
      const answer = await post(
        '/scoped',
        Buffer.from('{"a":1}'),
        { 'content-type': 'application/json', 'x-scope': 'request-7' },
        chunked,
      );
      expect(answer).toEqual({ status: 200, text: '{"scope":"request-7"}' });
    }
  });

  it('reads bodies into the same values, so the comparison above compares something', async () => {
    const answer = await post(
      '/strict',
      Buffer.from('\uFEFF {"a":[1]}'),
      { 'content-type': 'application/json' },
      false,
    );
    expect(answer).toEqual({ status: 200, text: '{"body":{"a":[1]}}' });
    const refused = await post(
      '/strict',
      Buffer.from('"text"'),
      { 'content-type': 'application/json' },
      false,
    );
    expect(refused).toEqual({ status: 400, text: '{"refused":"invalid_json"}' });
  });
});

describe('which bodies the small-body reader takes', () => {
  const request = (headers: Record<string, string>) =>
    ({ headers, readableEnded: false }) as unknown as IncomingMessage;
  const json = { 'content-type': 'application/json' };

  it('takes a plain JSON body with a Content-Length up to the ceiling', () => {
    expect(smallBodyLength(request({ ...json, 'content-length': '120' }), false)).toBe(120);
    expect(smallBodyLength(request({ 'content-length': String(SMALL_BODY_BYTES) }), true)).toBe(
      SMALL_BODY_BYTES,
    );
    expect(smallBodyLength(request({ 'content-type': 'text/plain', 'content-length': '5' }), true)).toBe(5);
  });

  it('leaves everything else to express.json', () => {
    const leftAlone: Record<string, string>[] = [
      { ...json, 'content-length': String(SMALL_BODY_BYTES + 1) },
      { ...json, 'content-length': '0' },
      { ...json, 'content-length': '12', 'content-encoding': 'gzip' },
      { ...json, 'transfer-encoding': 'chunked' },
      { ...json, 'content-length': '1e3' },
      { 'content-type': 'application/json; charset=utf-16', 'content-length': '12' },
      { 'content-type': 'text/plain', 'content-length': '12' },
      { 'content-length': '12' },
    ];
    for (const headers of leftAlone)
      expect(smallBodyLength(request(headers), false), JSON.stringify(headers)).toBe(-1);
  });
});
