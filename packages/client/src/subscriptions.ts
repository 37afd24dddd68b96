import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type Client, createClient } from 'graphql-ws';
import { AuthenticationError, errorFromBody, TributaryError } from './errors.ts';
import type { VariablesArgument } from './graphql.ts';
import { operationOf } from './persisted.ts';

export interface SubscriptionOptions {
  /** A WebSocket class where the runtime has none (Node 22+ and browsers have one). */
  webSocketImpl?: unknown;
  /** Reconnections after a dropped socket before the subscription fails (default 5). */
  retryAttempts?: number;
  /** The wait before reconnection `retries` (0-based); default 1 s, 2 s, 4 s… plus up to 1 s of jitter. */
  retryDelayMs?: (retries: number) => number;
}

/** Callbacks of a subscription: each result's data, then an error or the end. */
export interface Observer<T> {
  next(value: T): void;
  error?(error: unknown): void;
  complete?(): void;
}

/** A running subscription as an async iterator; `return()` (or leaving a `for await`) ends it. */
export type Subscription<T> = AsyncIterableIterator<T> & { return(): Promise<IteratorResult<T>> };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCloseEvent = (value: unknown): value is { code: number; reason: unknown } =>
  isObject(value) && typeof value.code === 'number' && 'reason' in value;

/** graphql-ws's failures as the client's errors: GraphQL errors, or the socket's close. */
function typedError(failure: unknown): unknown {
  if (failure instanceof TributaryError) return failure;
  if (Array.isArray(failure)) return errorFromBody({ errors: failure }, 200);
  if (isCloseEvent(failure)) {
    const reason = String(failure.reason || `WebSocket closed (${failure.code})`);
    // 4403: the token in connectionParams was refused.
    if (failure.code === 4403 || failure.code === 4401)
      return new AuthenticationError(
        { type: 'authentication_error', code: 'invalid_token', message: reason },
        401,
      );
  }
  return failure;
}

function dataOf<T>(result: { data?: unknown; errors?: readonly unknown[] }): T {
  if (result.errors?.length) throw errorFromBody({ errors: result.errors }, 200);
  return result.data as T;
}

export interface Subscriptions {
  /**
   * Subscribes with a subscription document over graphql-ws: an async iterator of each result's data,
   * typed by the document (leaving a `for await`, or `return()`, ends it; a GraphQL error throws its
   * typed TributaryError). `variables` is the object sent on every (re)subscription: after a dropped
   * connection the client resubscribes with it as it then is.
   */
  subscribe<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    ...args: VariablesArgument<TVariables>
  ): Subscription<TResult>;
  /** The same with callbacks: answers the function that ends the subscription. */
  observe<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
    observer: Observer<TResult>,
  ): () => void;
  /** Closes the socket. */
  close(): Promise<void>;
}

export function createSubscriptions(options: {
  url: string;
  token: () => string | undefined;
  settings: SubscriptionOptions;
}): Subscriptions {
  let client: Client | undefined;
  const { settings } = options;
  const socket = () => {
    client ??= createClient({
      url: options.url,
      lazy: true,
      connectionParams: () => {
        const token = options.token();
        return token ? { authorization: `Bearer ${token}` } : {};
      },
      retryAttempts: settings.retryAttempts ?? 5,
      // 4403: the service refused the token; another try would be refused the same.
      shouldRetry: (failure) => isCloseEvent(failure) && failure.code !== 4403,
      retryWait: (retries) =>
        new Promise((resolve) =>
          setTimeout(resolve, settings.retryDelayMs?.(retries) ?? 1000 * 2 ** retries + Math.random() * 1000),
        ),
      ...(settings.webSocketImpl ? { webSocketImpl: settings.webSocketImpl } : {}),
    });
    return client;
  };

  const payloadOf = (document: TypedDocumentNode<unknown, never>, variables: unknown) => {
    const operation = operationOf(document);
    if (operation.kind !== 'subscription')
      throw new TypeError('subscribe() takes a subscription: run queries and mutations with request().');
    // Sent as text: a server of trusted documents accepts the manifest's exact text over WebSocket.
    return {
      query: operation.text,
      variables: (variables ?? {}) as Record<string, unknown>,
      ...(operation.name ? { operationName: operation.name } : {}),
    };
  };

  return {
    subscribe: <TResult, TVariables>(
      document: TypedDocumentNode<TResult, TVariables>,
      ...[variables]: VariablesArgument<TVariables>
    ) => {
      const results = socket().iterate(payloadOf(document as TypedDocumentNode<unknown, never>, variables));
      const mapped = (async function* () {
        try {
          for await (const result of results) yield dataOf<TResult>(result);
        } catch (failure) {
          throw typedError(failure);
        } finally {
          await results.return?.();
        }
      })();
      return mapped as Subscription<TResult>;
    },
    observe: (document, variables, observer) => {
      let stop = () => {};
      stop = socket().subscribe(payloadOf(document as TypedDocumentNode<unknown, never>, variables), {
        next: (result) => {
          let data: Parameters<typeof observer.next>[0];
          try {
            data = dataOf(result);
          } catch (error) {
            stop();
            observer.error?.(error);
            return;
          }
          observer.next(data);
        },
        error: (failure) => observer.error?.(typedError(failure)),
        complete: () => observer.complete?.(),
      });
      return () => stop();
    },
    close: async () => {
      await client?.dispose();
      client = undefined;
    },
  };
}
