import { getIntrospectionQuery } from 'graphql';
import { createClient } from 'graphql-ws';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { QUERY_LIMITS } from '../../facades/graphql/query-limits.ts';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { graphql } from '../support/http.ts';

const app = useTestApp();
let account: AccountFixture;

beforeAll(async () => {
  account = await accountWithToken(app().em());
});

/** Valid GraphQL nested `levels` deep: inline fragments on Query count as a level each. */
const nested = (levels: number) => `{ ${'... on Query { '.repeat(levels)}__typename${' }'.repeat(levels)} }`;

async function firstError(query: string) {
  const answer = await graphql(app().url, query, {}, account.token);
  return answer.body.errors?.[0];
}

describe('limits of one document on /graphql', () => {
  it(`refuses nesting deeper than ${QUERY_LIMITS.depth} with query_too_deep`, async () => {
    expect(await firstError(nested(QUERY_LIMITS.depth - 2))).toBeUndefined();
    const error = await firstError(nested(QUERY_LIMITS.depth + 1));
    expect(error?.extensions).toMatchObject({ type: 'invalid_request_error', code: 'query_too_deep' });
    expect(error?.message).toContain(`limit of ${QUERY_LIMITS.depth}`);
  });

  it(`refuses more than ${QUERY_LIMITS.aliases} aliases with too_many_aliases`, async () => {
    const aliases = Array.from(
      { length: QUERY_LIMITS.aliases + 1 },
      (_, i) => `a${i}: pricing { currency }`,
    ).join(' ');
    const error = await firstError(`{ ${aliases} }`);
    expect(error?.extensions).toMatchObject({ type: 'invalid_request_error', code: 'too_many_aliases' });
  });

  it('counts aliases of __typename: 500 of them are refused with too_many_aliases', async () => {
    const aliases = Array.from({ length: 500 }, (_, i) => `t${i}: __typename`).join(' ');
    const answer = await graphql(app().url, `{ ${aliases} }`, {}, account.token);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors?.[0]?.extensions).toMatchObject({
      type: 'invalid_request_error',
      code: 'too_many_aliases',
    });
    expect(answer.body.errors?.[0]?.message).toContain(`limit of ${QUERY_LIMITS.aliases}`);
    const atTheLimit = Array.from({ length: QUERY_LIMITS.aliases }, (_, i) => `t${i}: __typename`).join(' ');
    expect(await firstError(`{ ${atTheLimit} }`)).toBeUndefined();
  });

  it(`refuses more than ${QUERY_LIMITS.directives} directives with too_many_directives`, async () => {
    const directives = '@include(if: true) '.repeat(QUERY_LIMITS.directives + 1);
    const error = await firstError(`{ __typename ${directives}}`);
    expect(error?.extensions).toMatchObject({ type: 'invalid_request_error', code: 'too_many_directives' });
  });

  it(`refuses a cost over ${QUERY_LIMITS.cost} with query_too_costly`, async () => {
    const chain = 'fields { type { ofType { ofType { ofType { ofType { ofType { name } } } } } } }';
    // The same field repeated (no aliases needed): GraphQL merges it, the cost counts every copy.
    const expensive = `__type(name: "Query") { ${chain} } `.repeat(60);
    const error = await firstError(`{ ${expensive} }`);
    expect(error?.extensions).toMatchObject({ type: 'invalid_request_error', code: 'query_too_costly' });
  });

  it(`refuses a document of more than ${QUERY_LIMITS.tokens} tokens with too_many_tokens`, async () => {
    const error = await firstError(`{ ${'__typename '.repeat(QUERY_LIMITS.tokens)}}`);
    expect(error?.extensions).toMatchObject({ type: 'invalid_request_error', code: 'too_many_tokens' });
  });

  it('still answers the full introspection query and an ordinary dashboard query', async () => {
    const introspection = await graphql(app().url, getIntrospectionQuery(), {}, account.token);
    expect(introspection.body.errors).toBeUndefined();
    expect(introspection.body.data.__schema.queryType.name).toBe('Query');
    const me = await graphql(app().url, '{ me { email } credits { balance } }', {}, account.token);
    expect(me.body.data.me.email).toBe(account.email);
  });

  it('applies the same limits over graphql-ws', async () => {
    const client = createClient({
      url: `${app().url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${account.token}` },
      retryAttempts: 0,
      lazy: true,
    });
    try {
      const errors = await new Promise<unknown>((resolve) => {
        client.subscribe(
          { query: nested(QUERY_LIMITS.depth + 1) },
          { next: () => {}, error: resolve, complete: () => resolve(null) },
        );
      });
      expect(JSON.stringify(errors)).toContain('query_too_deep');
    } finally {
      await client.dispose();
    }
  });
});
