import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  ReleaseEventsDocument,
  type ReleaseEventsSubscription,
  type ReleaseEventsSubscriptionVariables,
} from './generated/graphql/graphql.ts';
import { createGraphQLClient, type GraphQLClient } from './graphql.ts';
import { createRestClient, type RestClient } from './rest.ts';
import { createRetrier, type RetryPolicy, retryingFetch } from './retry.ts';
import {
  createSubscriptions,
  type Observer,
  type Subscription,
  type SubscriptionOptions,
  type Subscriptions,
} from './subscriptions.ts';
import { createUploads, type Uploads } from './uploads/upload.ts';

export interface TributaryClientOptions {
  /** The service's address, e.g. `http://localhost:8080` (REST is under /v1, GraphQL at /graphql). */
  baseUrl: string;
  /** A personal access token (`svc_pat_…`) or an OAuth access token; none for the public endpoints. */
  token?: string;
  /** Retries on 429 and 503 (default: 3 tries in all, honouring Retry-After); `false` for none. */
  retry?: RetryPolicy | false;
  /** The fetch to use (default: the runtime's). */
  fetch?: typeof fetch;
  /** The live events' WebSocket (graphql-ws). */
  subscriptions?: SubscriptionOptions;
}

/** One release event, typed by its kind (`__typename`). */
export type ReleaseEvent = ReleaseEventsSubscription['releaseEvents'];

export interface TributaryClient {
  /** REST `/v1`, typed by the OpenAPI document: `client.rest.GET('/releases/{id}', …)`. */
  rest: RestClient;
  /** GraphQL over HTTP with a typed document: `client.request(ReleaseDocument, { id })`. */
  request: GraphQLClient['request'];
  /** A subscription document over graphql-ws, as an async iterator. */
  subscribe: Subscriptions['subscribe'];
  /** A subscription document over graphql-ws, with callbacks. */
  observe: Subscriptions['observe'];
  /**
   * The account's release events, live (one release with `releaseId`; replayed from a cursor with
   * `after`). After a dropped connection the client resubscribes from the last event it delivered,
   * so nothing is missed or repeated.
   */
  releaseEvents(variables?: ReleaseEventsSubscriptionVariables): Subscription<ReleaseEvent>;
  /** The same with callbacks; answers the function that ends it. */
  onReleaseEvent(variables: ReleaseEventsSubscriptionVariables, observer: Observer<ReleaseEvent>): () => void;
  /** Chunked, resumable uploads. */
  uploads: Uploads;
  /** Closes the subscriptions' socket. */
  close(): Promise<void>;
}

export function createTributaryClient(options: TributaryClientOptions): TributaryClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const baseFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const retry = createRetrier(options.retry);
  const send = retryingFetch(baseFetch, retry);
  const headers = (): Record<string, string> =>
    options.token ? { authorization: `Bearer ${options.token}` } : {};
  const rest = createRestClient({ baseUrl, fetch: (request) => send(request), headers });
  const graphql = createGraphQLClient({ endpoint: `${baseUrl}/graphql`, fetch: baseFetch, retry, headers });
  const subscriptions = createSubscriptions({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    token: () => options.token,
    settings: options.subscriptions ?? {},
  });

  // The variables object is what a resubscription sends: `after` follows the events delivered.
  const following = (variables: ReleaseEventsSubscriptionVariables = {}) => {
    const sent: ReleaseEventsSubscriptionVariables = { ...variables };
    const seen = (event: ReleaseEvent) => {
      sent.after = event.cursor;
    };
    return { sent, seen };
  };
  const eventsDocument = ReleaseEventsDocument as TypedDocumentNode<
    ReleaseEventsSubscription,
    ReleaseEventsSubscriptionVariables
  >;

  return {
    rest,
    request: graphql.request,
    subscribe: subscriptions.subscribe,
    observe: subscriptions.observe,
    releaseEvents: (variables) => {
      const { sent, seen } = following(variables);
      const results = subscriptions.subscribe(eventsDocument, sent);
      const events = (async function* () {
        try {
          for await (const { releaseEvents } of results) {
            seen(releaseEvents);
            yield releaseEvents;
          }
        } finally {
          await results.return();
        }
      })();
      return events as Subscription<ReleaseEvent>;
    },
    onReleaseEvent: (variables, observer) => {
      const { sent, seen } = following(variables);
      return subscriptions.observe(eventsDocument, sent, {
        next: ({ releaseEvents }) => {
          seen(releaseEvents);
          observer.next(releaseEvents);
        },
        ...(observer.error ? { error: observer.error } : {}),
        ...(observer.complete ? { complete: observer.complete } : {}),
      });
    },
    uploads: createUploads({ baseUrl, rest, send, headers }),
    close: () => subscriptions.close(),
  };
}
