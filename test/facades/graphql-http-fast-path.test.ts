import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';

/** The answer without the parts that differ on every request. */
async function answerOf(response: Response) {
  const body = (await response.json()) as { errors?: { extensions?: Record<string, unknown> }[] };
  for (const error of body.errors ?? []) delete error.extensions?.requestId;
  return { status: response.status, body };
}

describe('POST /graphql: bodies read before yoga, documents compiled on their second run', () => {
  const app = useTestApp();

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${app().url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body,
    });

  it('reads bodies as the other surfaces do: compressed ones inflated, unreadable ones in the one vocabulary', async () => {
    const { token } = await accountWithToken(app().em());
    const auth = { authorization: `Bearer ${token}` };
    const query = JSON.stringify({ query: '{ me { email } }' });
    const plain = await answerOf(await post(query, auth));
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ data: { me: { email: expect.any(String) } } });
    for (const [encoding, compress] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      const inflated = await answerOf(
        await fetch(`${app().url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': encoding, ...auth },
          body: compress(query),
        }),
      );
      expect(inflated, encoding).toEqual(plain);
    }
    const refusals: [Record<string, string>, string | Buffer, string][] = [
      [{}, '{"query": ', 'invalid_json'],
      [{}, '', 'invalid_json'],
      [{ 'content-encoding': 'gzip' }, 'not gzip', 'invalid_content_encoding'],
      [{ 'content-encoding': 'compress' }, query, 'unsupported_content_encoding'],
      [{ 'content-type': 'application/json; charset=latin1' }, query, 'unsupported_charset'],
      [
        {},
        `{"query":"{ __typename }","variables":{"x":${'['.repeat(100)}${']'.repeat(100)}}}`,
        'json_too_deep',
      ],
    ];
    for (const [headers, body, code] of refusals) {
      const refused = await answerOf(await post(body as string, { ...auth, ...headers }));
      expect(refused, code).toEqual({
        status: 400,
        body: {
          errors: [{ message: expect.any(String), extensions: { type: 'invalid_request_error', code } }],
        },
      });
    }
  });

  it('hands yoga what is not a non-empty object, for its own answer', async () => {
    const expected: [string, number, RegExp][] = [
      ['[{"query": "{ __typename }"}]', 400, /^Batching is not supported/],
      ['"{ __typename }"', 400, /expected to be object but received string/],
      ['7', 400, /expected to be object but received number/],
      // A JSON answer (Accept: application/json) may carry a request error with 200, as yoga does.
      ['{}', 200, /^Must provide query string/],
    ];
    for (const [body, status, message] of expected) {
      const answer = await answerOf(await post(body));
      expect(answer.status, body).toBe(status);
      expect((answer.body.errors as { message: string }[] | undefined)?.[0]?.message, body).toMatch(message);
    }
    const sent = await answerOf(
      await fetch(`${app().url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/graphql+json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      }),
    );
    expect(sent).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
  });

  it('answers a document the same on its first run (graphql-js) and on later runs (compiled)', async () => {
    const { token } = await accountWithToken(app().em());
    const auth = { authorization: `Bearer ${token}` };
    const cases = [
      { query: '{ me { email firstName } pricing { currency } }' },
      { query: 'query R($id: ID!) { releaseStatus(releaseId: $id) { aggregateStatus } }', variables: {} },
      {
        query: 'query R($id: ID!) { releaseStatus(releaseId: $id) { aggregateStatus } }',
        variables: { id: 7 },
      },
      {
        query: 'query R($id: ID!) { releaseStatus(releaseId: $id) { aggregateStatus } }',
        variables: { id: '00000000-0000-4000-8000-000000000000' },
      },
      {
        query: 'query L($first: Int) { releases(first: $first) { totalCount } }',
        variables: { first: 'ten' },
      },
    ];
    for (const body of cases) {
      const runs = [];
      for (let run = 0; run < 3; run++) runs.push(await answerOf(await post(JSON.stringify(body), auth)));
      expect(runs[1], body.query).toEqual(runs[0]);
      expect(runs[2], body.query).toEqual(runs[0]);
    }
  });
  it('counts a refused body in the metrics, as yoga counted what it refused', async () => {
    const count = async (prefix: string) => {
      const line = (await app().services.metrics.render()).body
        .split('\n')
        .find((l: string) => l.startsWith(prefix));
      return Number(line?.split(' ').pop() ?? 0);
    };
    const errors = 'tributary_errors_total{surface="graphql",type="invalid_request_error"}';
    const before = await count(errors);
    expect((await post('{bad')).status).toBe(400);
    expect(await count(errors)).toBe(before + 1);
  });

  it('keeps a field error’s locations on compiled runs', async () => {
    const { token } = await accountWithToken(app().em());
    const auth = { authorization: `Bearer ${token}` };
    const body = JSON.stringify({ query: '{ file(fileUrl: "nope") { fileUrl } }' });
    const runs = [];
    for (let run = 0; run < 3; run++) runs.push(await answerOf(await post(body, auth)));
    expect(runs[0]!.body.errors?.[0]).toMatchObject({ locations: [{ line: 1, column: 3 }] });
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
  });
});
