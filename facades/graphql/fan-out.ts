import {
  createSourceEventStream,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  type GraphQLError,
} from 'graphql';
import type { WebSocket } from 'ws';
import type { PublishedEvent, PubSub } from '../../src/platform/events/pubsub.ts';
import { matches } from '../../src/platform/events/replay.ts';
import { EventStream, type EventStreamSpec, replayAfter } from '../../src/platform/events/subscribe.ts';
import { compiledOperations, inExecutorOrder, placed } from './compiled-repeats.ts';
import { queryKey, sharedSubscribe } from './shared-subscribe.ts';

/** Where one graphql-ws operation's results go: its socket and its subscription id. */
interface Transport {
  socket: WebSocket;
  id: string;
}

interface Subscriber {
  socket: WebSocket;
  /** The start of every `next` frame of this operation, up to its payload, UTF-8 encoded. */
  framePrefix: Buffer;
  args: ExecutionArgs;
  key: string;
  spec: EventStreamSpec;
  /** Cursor of the last event sent: a replayed event is never sent again live. */
  last: number;
  /** Live events held back while the replay runs; null once live. */
  backlog: PublishedEvent[] | null;
  /** Sends waiting on an asynchronous execution, so that this operation's frames keep their order. */
  tail: Promise<void> | null;
  end(error?: unknown): void;
}

/** An execution result, serialised and UTF-8 encoded once for every subscriber of the same query. */
type Payload = Buffer | Promise<Buffer>;

const FRAME_END = Buffer.from('}');

/**
 * Fans published events out to graphql-ws subscribers of resumable event streams without an async
 * iterator per subscriber: one pub/sub listener, subscribers indexed by account, each event executed and
 * serialised once per distinct query, and each socket sent a frame that only adds its subscription id.
 * graphql-ws still owns the protocol (connection, subscribe, complete, errors, close); for these
 * operations it holds an iterator that ends when the operation does. Frames are what graphql-ws would
 * send: `{"id","type":"next","payload"}` with the execution result, errors normalised by `formatErrors`.
 */
export function createFanOut(
  formatErrors: (errors: readonly GraphQLError[]) => GraphQLError[],
  options: { compiled: boolean } = { compiled: true },
) {
  const transports = new WeakMap<object, Transport>();
  const hubs = new WeakMap<PubSub, Map<string, Set<Subscriber>>>();
  // Each document's selection compiled once (graphql-jit), as /graphql's queries are: an event runs it
  // with the event as its root, once per distinct query.
  const compiledFor = compiledOperations();
  const selectionOf = (args: ExecutionArgs) => (options.compiled ? compiledFor(args) : null);

  function payloadOf(args: ExecutionArgs, event: PublishedEvent): Payload {
    const source = args.document.loc?.source;
    const serialise = (result: ExecutionResult) =>
      Buffer.from(
        JSON.stringify(
          result.errors
            ? inExecutorOrder(
                {
                  ...result,
                  errors: formatErrors(result.errors.map((e) => (source ? placed(e, source) : e))),
                },
                (e) => e,
              )
            : result,
        ),
      );
    const compiled = selectionOf(args);
    const result = compiled
      ? compiled.query(event, args.contextValue, (args.variableValues ?? {}) as Record<string, unknown>)
      : execute({ ...args, rootValue: event });
    return result instanceof Promise ? result.then(serialise) : serialise(result as ExecutionResult);
  }

  /**
   * One `next` frame through ws's public `send` (ws frames it, queues it behind anything it holds back):
   * prefix, shared payload and `}` as one text message. Encoding the payload once pays against a string
   * per socket that ws encodes: 15.9 against 22.3 µs of CPU a socket at 3 KB, level at 120 B (14.2 and
   * 14.7 µs; `npm run bench -- fan-out-send`). A hand-built frame written to ws's TCP socket saved 1–2 µs
   * more, but only by reading ws's private fields (docs/performance.md).
   */
  function send(subscriber: Subscriber, payload: Buffer): void {
    const { socket, framePrefix } = subscriber;
    if (socket.readyState !== socket.OPEN) return;
    const length = framePrefix.length + payload.length + FRAME_END.length;
    socket.send(Buffer.concat([framePrefix, payload, FRAME_END], length), { binary: false });
  }

  function deliver(subscriber: Subscriber, event: PublishedEvent, payloads: Map<string, Payload>): void {
    if (event.cursor <= subscriber.last) return;
    subscriber.last = event.cursor;
    let payload = payloads.get(subscriber.key);
    if (payload === undefined) {
      payload = payloadOf(subscriber.args, event);
      payloads.set(subscriber.key, payload);
    }
    if (Buffer.isBuffer(payload) && subscriber.tail === null) {
      send(subscriber, payload);
      return;
    }
    const pending = payload;
    const tail: Promise<void> = (subscriber.tail ?? Promise.resolve())
      .then(async () => send(subscriber, await pending))
      .catch((error: unknown) => subscriber.end(error))
      .finally(() => {
        if (subscriber.tail === tail) subscriber.tail = null;
      });
    subscriber.tail = tail;
  }

  function hubOf(pubsub: PubSub): Map<string, Set<Subscriber>> {
    const existing = hubs.get(pubsub);
    if (existing) return existing;
    const subscribers = new Map<string, Set<Subscriber>>();
    hubs.set(pubsub, subscribers);
    pubsub.subscribe((event) => {
      const candidates = subscribers.get(event.accountId);
      if (!candidates) return;
      const payloads = new Map<string, Payload>();
      for (const subscriber of candidates) {
        if (!matches(event, subscriber.spec.filter)) continue;
        if (subscriber.backlog) subscriber.backlog.push(event);
        else deliver(subscriber, event, payloads);
      }
    });
    return subscribers;
  }

  async function replay(subscriber: Subscriber, after: number): Promise<void> {
    for await (const event of replayAfter(subscriber.spec.em, subscriber.spec.filter, after))
      deliver(subscriber, event, new Map());
    const backlog = subscriber.backlog ?? [];
    subscriber.backlog = null;
    for (const event of backlog) deliver(subscriber, event, new Map());
  }

  /** Registers an operation; the returned iterator yields nothing and ends with the operation. */
  function hold(
    stream: EventStream,
    args: ExecutionArgs,
    transport: Transport,
  ): AsyncIterableIterator<never> {
    const { spec } = stream;
    const byAccount = hubOf(spec.pubsub);
    let settle!: { resolve(result: IteratorResult<never>): void; reject(error: unknown): void };
    const ended = new Promise<IteratorResult<never>>((resolve, reject) => {
      settle = { resolve, reject };
    });
    const remove = () => {
      const set = byAccount.get(spec.filter.accountId);
      set?.delete(subscriber);
      if (set?.size === 0) byAccount.delete(spec.filter.accountId);
    };
    const subscriber: Subscriber = {
      socket: transport.socket,
      framePrefix: Buffer.from(`{"id":${JSON.stringify(transport.id)},"type":"next","payload":`),
      args,
      key: queryKey(args),
      spec,
      last: spec.after ?? Number.NEGATIVE_INFINITY,
      backlog: spec.after === null ? null : [],
      tail: null,
      end: (error) => {
        remove();
        if (error === undefined) settle.resolve({ done: true, value: undefined });
        else settle.reject(error);
      },
    };
    const set = byAccount.get(spec.filter.accountId) ?? new Set();
    set.add(subscriber);
    byAccount.set(spec.filter.accountId, set);
    if (spec.after !== null) replay(subscriber, spec.after).catch((error: unknown) => subscriber.end(error));
    const done = async (): Promise<IteratorResult<never>> => {
      subscriber.end();
      return { done: true, value: undefined };
    };
    return {
      next: () => ended,
      return: done,
      throw: done,
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  return {
    /** Tells the fan-out which socket and subscription id an operation's context belongs to. */
    bind<T extends object>(contextValue: T, socket: WebSocket, id: string): T {
      transports.set(contextValue, { socket, id });
      return contextValue;
    },

    /** graphql-ws's `subscribe`: event streams of bound operations are fanned out here, anything else shared. */
    async subscribe(args: ExecutionArgs) {
      const transport = transports.get(args.contextValue as object);
      if (!transport) return sharedSubscribe(args);
      const source = await createSourceEventStream(args);
      if (!(source instanceof EventStream)) return sharedSubscribe(args, source);
      return hold(source, args, transport);
    },
  };
}
