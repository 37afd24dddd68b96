import { type Client, createClient } from 'graphql-ws';
import type { Document } from './api.ts';
import { apiErrorOf, networkError, SessionEndedError } from './errors.ts';

export interface Observer<T> {
  next(data: T): void;
  error(error: unknown): void;
  complete?(): void;
}

export interface Subscriptions {
  /**
   * Subscribes with a generated subscription document (sent as its trusted text: graphql-ws sends
   * text, and the service trusts the manifest's exact text by its hash). Answers the function that
   * ends the subscription. `variables()` is read on every (re)subscription, so a page can resume after
   * the last event it saw (`after: lastCursor`).
   */
  subscribe<TResult, TVariables>(
    document: Document<TResult, TVariables>,
    variables: () => TVariables,
    observer: Observer<TResult>,
  ): () => void;
  close(): Promise<void>;
}

const isCloseEvent = (value: unknown): value is { code: number; reason: string } =>
  typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number';

/** graphql-ws's 4403: the connection's token was refused. */
const FORBIDDEN = 4403;

/**
 * GraphQL subscriptions over graphql-ws on this origin's `/graphql` (the CSP's `connect-src 'self'`
 * covers ws: and wss: of the same host), with the session's token in `connectionParams`. Reconnects
 * with backoff after a dropped socket, never after a refused token. `onConnected` is called each time
 * the socket is up (the first time, and after each reconnection), before the subscriptions resume.
 */
export function createSubscriptions(options: {
  token: string;
  path: string;
  onConnected?: () => void;
}): Subscriptions {
  let client: Client | undefined;
  const socket = () => {
    client ??= createClient({
      url: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${options.path}`,
      lazy: true,
      connectionParams: { authorization: `Bearer ${options.token}` },
      retryAttempts: 5,
      shouldRetry: (event) => isCloseEvent(event) && event.code !== FORBIDDEN,
      on: { connected: () => options.onConnected?.() },
    });
    return client;
  };
  const typed = (failure: unknown) => {
    if (Array.isArray(failure)) return apiErrorOf(failure[0], 200);
    if (isCloseEvent(failure) && failure.code === FORBIDDEN)
      return new SessionEndedError({
        type: 'authentication_error',
        code: 'invalid_token',
        message: 'Your session has ended.',
      });
    return networkError();
  };
  return {
    subscribe(document, variables, observer) {
      return socket().subscribe(
        {
          query: String(document),
          get variables() {
            return variables() as Record<string, unknown>;
          },
        },
        {
          next: (result) => {
            if (result.errors?.length) observer.error(apiErrorOf(result.errors[0], 200));
            else observer.next(result.data as never);
          },
          error: (failure) => observer.error(typed(failure)),
          complete: () => observer.complete?.(),
        },
      );
    },
    close: async () => {
      await client?.dispose();
      client = undefined;
    },
  };
}
