import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { errorFromBody, NotFoundError, RateLimitError, type TributaryError } from './errors.ts';
import { operationOf } from './persisted.ts';
import type { Retrier } from './retry.ts';

export interface GraphQLRequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** Variables that may be left out when the operation has none (or only optional ones). */
export type VariablesArgument<TVariables> =
  Record<string, never> extends TVariables ? [variables?: TVariables] : [variables: TVariables];

export interface GraphQLClient {
  /**
   * Runs a query or mutation and answers its data, typed by the document; any GraphQL error throws
   * its typed TributaryError (the first error's `extensions`; every error in `errors`).
   */
  request<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    ...args: [...VariablesArgument<TVariables>, options?: GraphQLRequestOptions]
  ): Promise<TResult>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A mutation is safe to retry when its input carries an idempotency key (submitRelease does). */
function carriesIdempotencyKey(variables: unknown): boolean {
  return (
    isObject(variables) && isObject(variables.input) && typeof variables.input.idempotencyKey === 'string'
  );
}

/** Every submission carries a key, so a retry (ours or the caller's) never charges twice. */
function withIdempotencyKey(variables: unknown): unknown {
  if (
    !isObject(variables) ||
    !isObject(variables.input) ||
    typeof variables.input.idempotencyKey === 'string'
  )
    return variables;
  return { ...variables, input: { ...variables.input, idempotencyKey: crypto.randomUUID() } };
}

/**
 * GraphQL over HTTP on `endpoint` (…/graphql). A document of the manifest goes by `documentId`
 * (`sha256:<hash>`), so the server runs its compiled copy and a trusted-documents server accepts it.
 * A server started without the manifest answers 404 `persisted_query_not_found`: the client then
 * registers the text under its hash (Automatic Persisted Queries), after which the id alone runs it;
 * when registration is rate limited, the text is sent as a plain query. Other documents go as text.
 */
export function createGraphQLClient(options: {
  endpoint: string;
  fetch: typeof fetch;
  retry: Retrier;
  headers: () => Record<string, string>;
}): GraphQLClient {
  const post = async (
    body: Record<string, unknown>,
    retryable: boolean,
    requestOptions: GraphQLRequestOptions,
    unless?: (error: TributaryError) => boolean,
  ) =>
    options.retry(
      async () => {
        const response = await options.fetch(options.endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/graphql-response+json, application/json',
            ...options.headers(),
            ...requestOptions.headers,
          },
          body: JSON.stringify(body),
          ...(requestOptions.signal ? { signal: requestOptions.signal } : {}),
        });
        const text = await response.text();
        let answer: unknown;
        try {
          answer = JSON.parse(text);
        } catch {
          answer = { message: text.slice(0, 500) || `HTTP ${response.status}` };
        }
        if (response.ok && isObject(answer) && !Array.isArray(answer.errors)) return answer.data;
        throw errorFromBody(answer, response.status, response.headers);
      },
      { retryable, signal: requestOptions.signal, ...(unless ? { unless } : {}) },
    );

  return {
    request: async (document, ...args) => {
      let [variables, requestOptions = {}] = args as unknown as [unknown, GraphQLRequestOptions | undefined];
      const operation = operationOf(document);
      if (operation.kind === 'subscription')
        throw new TypeError('A subscription runs over WebSocket: use subscribe() instead.');
      if (operation.rootFields.includes('submitRelease')) variables = withIdempotencyKey(variables);
      const retryable = operation.kind === 'query' || carriesIdempotencyKey(variables);
      const common = {
        ...(operation.name ? { operationName: operation.name } : {}),
        ...(variables === undefined ? {} : { variables }),
      };
      const byText = () => post({ query: operation.text, ...common }, retryable, requestOptions);
      if (!operation.documentId) return byText() as never;
      try {
        return (await post(
          { documentId: operation.documentId, ...common },
          retryable,
          requestOptions,
        )) as never;
      } catch (error) {
        if (!(error instanceof NotFoundError && error.code === 'persisted_query_not_found')) throw error;
      }
      // Nothing ran: the server does not know the id. Register the text under its hash.
      const sha256Hash = operation.documentId.slice('sha256:'.length);
      // Registration is bounded per caller (an HTTP 429, nothing run): the text alone runs without it.
      const registrationRefused = (error: TributaryError) =>
        error instanceof RateLimitError && error.httpStatus === 429;
      try {
        return (await post(
          { query: operation.text, ...common, extensions: { persistedQuery: { version: 1, sha256Hash } } },
          retryable,
          requestOptions,
          registrationRefused,
        )) as never;
      } catch (error) {
        if (error instanceof RateLimitError && registrationRefused(error)) return byText() as never;
        throw error;
      }
    },
  };
}
