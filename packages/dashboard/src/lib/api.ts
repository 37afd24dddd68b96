import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { apiErrorOf, networkError } from './errors.ts';

/**
 * A generated document (packages/dashboard/src/generated/graphql.ts): its text, typed by its result
 * and variables, with `__meta__.hash`, the `sha256:<hex>` id the service trusts it under.
 */
export type Document<TResult, TVariables> = DocumentTypeDecoration<TResult, TVariables> & {
  __meta__?: Record<string, unknown> | undefined;
};

type Variables<TVariables> = [TVariables] extends [Record<string, never>] ? [] : [variables: TVariables];

export interface Api {
  /** Runs a query by GET with its `documentId` (the browser revalidates repeats with its ETag). */
  query<TResult, TVariables>(
    document: Document<TResult, TVariables>,
    ...variables: Variables<NoInfer<TVariables>>
  ): Promise<TResult>;
  /** Runs a mutation by POST with its `documentId`. */
  mutate<TResult, TVariables>(
    document: Document<TResult, TVariables>,
    ...variables: Variables<NoInfer<TVariables>>
  ): Promise<TResult>;
}

/** The id a generated document is trusted under; a document without one was not generated. */
export function documentIdOf(document: Document<unknown, never>): string {
  const hash = document.__meta__?.hash;
  if (typeof hash !== 'string') throw new TypeError('Not a generated document: run npm run client:generate.');
  return hash;
}

const ACCEPT = 'application/graphql-response+json, application/json';

/**
 * The dashboard's calls to `/graphql`, with the session's bearer token. Documents go by id only, never
 * as text; cookies stay home (`credentials: 'omit'`): the token is the one credential sent. An answer's
 * first GraphQL error, or a failed request, throws a typed ApiError (errors.ts).
 */
export function createApi(options: { token: string; endpoint: string }): Api {
  const headers = { authorization: `Bearer ${options.token}`, accept: ACCEPT };

  async function send(method: 'GET' | 'POST', document: Document<unknown, never>, variables: unknown) {
    const documentId = documentIdOf(document);
    let response: Response;
    try {
      if (method === 'GET') {
        const params = new URLSearchParams({ documentId });
        if (variables !== undefined) params.set('variables', JSON.stringify(variables));
        response = await fetch(`${options.endpoint}?${params}`, { headers, credentials: 'omit' });
      } else {
        response = await fetch(options.endpoint, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ documentId, ...(variables === undefined ? {} : { variables }) }),
          credentials: 'omit',
        });
      }
    } catch {
      throw networkError();
    }
    let body: { data?: unknown; errors?: unknown[] } | undefined;
    try {
      body = (await response.json()) as typeof body;
    } catch {
      body = undefined;
    }
    const [first] = body?.errors ?? [];
    if (first !== undefined) throw apiErrorOf(first, response.status);
    if (!response.ok || body?.data === undefined || body.data === null)
      throw apiErrorOf(undefined, response.status);
    return body.data;
  }

  return {
    query: (document, ...[variables]) =>
      send('GET', document as Document<unknown, never>, variables) as Promise<never>,
    mutate: (document, ...[variables]) =>
      send('POST', document as Document<unknown, never>, variables) as Promise<never>,
  };
}
