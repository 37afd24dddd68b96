import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ErrorType } from '../errors.ts';
import { RequestSeries, registerRequestFamilies } from './request-series.ts';

/** The surfaces a request is counted under; `other` holds errors of web pages, OAuth and byte routes. */
export type Surface = 'graphql' | 'rest' | 'agent_http' | 'agent_tool';
export type ErrorSurface = Surface | 'other';

/** The operation label of a request no route, tool or method matched (one value, whatever was sent). */
export const UNKNOWN_OPERATION = 'unknown';
/** GraphQL operation names past this many distinct ones share the label `other` (clients name them). */
export const MAX_GRAPHQL_OPERATION_NAMES = 200;
/** Longer GraphQL operation names share `other` too: a label value stays short. */
export const MAX_GRAPHQL_OPERATION_NAME_LENGTH = 64;

/** Seconds: from well under a millisecond (cached reads) to a slow upload. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LAG_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * One operation's bound series, made once (at start-up, or the first time a bounded name is seen): a
 * request then costs a histogram observation and a counter increment on plain numbers, with no label
 * object built (request-series.ts).
 */
export interface RequestMetric {
  /** `startedAt` is a `performance.now()` reading taken when the request arrived. */
  observe(startedAt: number, failed: boolean): void;
}

/** A number that only grows (hits, misses), read at scrape time. */
export interface CacheStats {
  readonly name: string;
  readonly hits: number;
  readonly misses: number;
}

/** Values read when Prometheus scrapes: a failure leaves the family empty for that scrape. */
export type GaugeReader = () => Promise<{ labels: Record<string, string>; value: number }[]>;

/**
 * The process's metrics, in a registry of its own (several apps can live in one test process). Every
 * label takes values from a closed set: surfaces, route operationIds, tool names, error types, queue
 * names; a name a client sends is looked up in that set, never used as it came.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #onCollectError: (family: string, error: unknown) => void;
  /** Every bound request series, by `surface operation`. */
  readonly #series = new Map<string, RequestSeries>();
  readonly #errors: Counter<'surface' | 'type'>;
  readonly #relayLag: Histogram;
  readonly #webhookCreated: Counter<'status'>;
  readonly #webhookAttempts: Counter<'outcome'>;
  readonly #graphql = new Map<string, RequestMetric>();
  #graphqlOther: RequestMetric | undefined;
  readonly #caches: CacheStats[] = [];
  readonly #wsOperations: Counter<'type'>;
  readonly #wsOpen: Gauge;
  readonly #wsConnections: Gauge;

  constructor(options: { onCollectError?: (family: string, error: unknown) => void } = {}) {
    this.#onCollectError = options.onCollectError ?? (() => {});
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    registerRequestFamilies(
      this.registry,
      { duration: 'tributary_request_duration_seconds', requests: 'tributary_requests_total' },
      LATENCY_BUCKETS,
      () => this.#series.values(),
    );
    this.#errors = new Counter({
      name: 'tributary_errors_total',
      help: 'Errors answered, by surface and error type (the vocabulary of docs/errors.md).',
      labelNames: ['surface', 'type'],
      registers,
    });
    this.#relayLag = new Histogram({
      name: 'tributary_event_relay_lag_seconds',
      help: 'Time from an outbox event being written to the relay publishing it (assigning its cursor).',
      buckets: LAG_BUCKETS,
      registers,
    });
    this.#webhookCreated = new Counter({
      name: 'tributary_webhook_deliveries_created_total',
      help: 'Webhook deliveries the dispatcher created: pending (to send) or suppressed (an identical event was delivered within 6 hours).',
      labelNames: ['status'],
      registers,
    });
    this.#webhookAttempts = new Counter({
      name: 'tributary_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome: succeeded, retrying (failed, will retry) or failed (no retry left).',
      labelNames: ['outcome'],
      registers,
    });
    this.#wsOperations = new Counter({
      name: 'tributary_graphql_ws_operations_total',
      help: 'Operations started over graphql-ws (WebSocket), by type (query, mutation, subscription).',
      labelNames: ['type'],
      registers,
    });
    this.#wsOpen = new Gauge({
      name: 'tributary_graphql_ws_open_operations',
      help: 'graphql-ws operations running now (live subscriptions, mostly).',
      registers,
    });
    this.#wsConnections = new Gauge({
      name: 'tributary_graphql_ws_connections',
      help: 'graphql-ws connections acknowledged and still open.',
      registers,
    });
    const caches = this.#caches;
    new Counter({
      name: 'tributary_cache_hits_total',
      help: 'Reads answered from an in-process cache, by cache.',
      labelNames: ['cache'],
      registers,
      collect() {
        this.reset();
        for (const cache of caches) this.inc({ cache: cache.name }, cache.hits);
      },
    });
    new Counter({
      name: 'tributary_cache_misses_total',
      help: 'Reads an in-process cache could not answer (loaded from the database), by cache.',
      labelNames: ['cache'],
      registers,
      collect() {
        this.reset();
        for (const cache of caches) this.inc({ cache: cache.name }, cache.misses);
      },
    });
  }

  /** The bound series of one operation of a surface (call at start-up, once per operation). */
  request(surface: Surface, operation: string): RequestMetric {
    const key = `${surface} ${operation}`;
    let series = this.#series.get(key);
    if (!series) {
      series = new RequestSeries(surface, operation, LATENCY_BUCKETS);
      this.#series.set(key, series);
    }
    const bound = series;
    return {
      observe: (startedAt, failed) => bound.observe((performance.now() - startedAt) / 1000, failed),
    };
  }

  /**
   * The series of a GraphQL operation by the name the client gave it (or `anonymous`): the first
   * MAX_GRAPHQL_OPERATION_NAMES distinct names get their own, later (and over-long) ones share `other`.
   */
  graphqlOperation(key: string): RequestMetric {
    const known = this.#graphql.get(key);
    if (known) return known;
    if (this.#graphql.size >= MAX_GRAPHQL_OPERATION_NAMES || key.length > MAX_GRAPHQL_OPERATION_NAME_LENGTH) {
      return this.#other();
    }
    const metric = this.request('graphql', key);
    this.#graphql.set(key, metric);
    return metric;
  }

  #other(): RequestMetric {
    let other = this.#graphqlOther;
    if (!other) {
      other = this.request('graphql', 'other');
      this.#graphqlOther = other;
    }
    return other;
  }

  /** A graphql-ws connection acknowledged (+1) or gone (-1). */
  graphqlWsConnection(change: 1 | -1): void {
    this.#wsConnections.inc(change);
  }

  /** A graphql-ws operation started; `graphqlWsOperationEnded` when it completes (each start ends once). */
  graphqlWsOperationStarted(type: 'query' | 'mutation' | 'subscription'): void {
    this.#wsOperations.inc({ type });
    this.#wsOpen.inc();
  }

  graphqlWsOperationEnded(): void {
    this.#wsOpen.dec();
  }

  countError(surface: ErrorSurface, type: ErrorType): void {
    this.#errors.inc({ surface, type });
  }

  observeRelayLag(seconds: number): void {
    this.#relayLag.observe(Math.max(0, seconds));
  }

  countWebhookDeliveriesCreated(result: { queued: number; suppressed: number }): void {
    if (result.queued > 0) this.#webhookCreated.inc({ status: 'pending' }, result.queued);
    if (result.suppressed > 0) this.#webhookCreated.inc({ status: 'suppressed' }, result.suppressed);
  }

  countWebhookAttempts(result: { succeeded: number; retrying: number; failed: number }): void {
    if (result.succeeded > 0) this.#webhookAttempts.inc({ outcome: 'succeeded' }, result.succeeded);
    if (result.retrying > 0) this.#webhookAttempts.inc({ outcome: 'retrying' }, result.retrying);
    if (result.failed > 0) this.#webhookAttempts.inc({ outcome: 'failed' }, result.failed);
  }

  /** A cache whose hit and miss counts are read at scrape time. */
  addCache(cache: CacheStats): void {
    this.#caches.push(cache);
  }

  /**
   * A gauge family whose values are read (often from the database) when Prometheus scrapes. Returns
   * the function that removes it (when what it reads stops).
   */
  addGauge(name: string, help: string, labelNames: string[], read: GaugeReader): () => void {
    const onError = this.#onCollectError;
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          for (const { labels, value } of await read()) this.set(labels, value);
        } catch (error) {
          onError(name, error);
        }
      },
    });
    return () => this.registry.removeSingleMetric(name);
  }

  /** The text exposition format Prometheus scrapes. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
