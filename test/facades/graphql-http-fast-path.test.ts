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

  it('answers a body read before yoga as yoga answers the same body read by itself', async () => {
    const { token } = await accountWithToken(app().em());
    const auth = { authorization: `Bearer ${token}` };
    const bodies = [
      JSON.stringify({ query: '{ me { email } }' }),
      JSON.stringify({ query: 'query Pricing { pricing { currency } }', operationName: 'Pricing' }),
      '{"query": ',
      '[{"query": "{ __typename }"}]',
      '"{ __typename }"',
      '{}',
      '  ',
      JSON.stringify({ query: '{ nope }' }),
    ];
    for (const body of bodies) {
      const plain = await answerOf(await post(body, auth));
      // Sent in chunks without a Content-Length: yoga reads such a body itself.
      const streamed = await answerOf(
        await fetch(`${app().url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...auth },
          body: new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(body));
              controller.close();
            },
          }),
          duplex: 'half',
        } as RequestInit),
      );
      expect(plain, body).toEqual(streamed);
    }
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
});
