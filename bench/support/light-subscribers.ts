import { Worker } from 'node:worker_threads';
import type { WorkerMessage, WorkerSetup } from './subscriber-worker.ts';

export interface LightSubscribers {
  /** The first `next` frame any socket received (for copying its payload's shape). */
  sample(): string | null;
  /** Fires warm-up events (numbered below zero) until every subscription has received one. */
  warmUp(fire: (n: number) => Promise<unknown>): Promise<void>;
  /** Every subscriber's receipt time of event n (ms since the epoch), once all have it. */
  receipts(n: number, timeoutMs?: number): Promise<Float64Array[]>;
  close(): Promise<void>;
}

/**
 * `total` graphql-ws subscriptions (one per socket) spread round-robin over `urls`, held by `workers`
 * worker threads so that receiving frames is not bound to one core.
 */
export async function openLightSubscribers(options: {
  urls: string[];
  total: number;
  workers: number;
  token: string;
  query: string;
}): Promise<LightSubscribers> {
  const wsUrls = options.urls.map((url) => `${url.replace(/^http/, 'ws')}/graphql`);
  const arrived = new Map<number, Float64Array[]>();
  let warm = 0;
  let sample: string | null = null;
  let wake: () => void = () => {};
  const changed = () => new Promise<void>((resolve) => (wake = resolve));
  const threads = Array.from({ length: options.workers }, (_, w) => {
    const count = Math.floor(options.total / options.workers) + (w < options.total % options.workers ? 1 : 0);
    // Each worker's sockets alternate between the URLs, so every server holds an equal share.
    const setup: WorkerSetup = { urls: wsUrls, count, token: options.token, query: options.query };
    return new Worker(new URL('./subscriber-worker.ts', import.meta.url), { workerData: setup });
  });
  const opened = threads.map(
    (thread) =>
      new Promise<number>((resolve, reject) => {
        thread.once('error', reject);
        thread.on('message', (message: WorkerMessage) => {
          if (message.kind === 'open') resolve(message.failed);
          else if (message.kind === 'sample') sample ??= message.frame;
          else if (message.kind === 'warm') warm++;
          else if (message.kind === 'event') {
            const list = arrived.get(message.n) ?? [];
            list.push(message.times);
            arrived.set(message.n, list);
          } else return;
          wake();
        });
      }),
  );
  const failed = (await Promise.all(opened)).reduce((a, b) => a + b, 0);
  if (failed > 0) {
    await Promise.all(threads.map((t) => t.terminate()));
    throw new Error(`${failed} of ${options.total} subscriber sockets failed to open`);
  }

  async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!done() && Date.now() < deadline) {
      const timer = new Promise<void>((resolve) => setTimeout(resolve, deadline - Date.now()));
      await Promise.race([changed(), timer]);
    }
    return done();
  }

  return {
    sample: () => sample,
    async warmUp(fire) {
      for (let k = 1; warm < threads.length; k++) {
        if (k > 100)
          throw new Error(`only ${warm} of ${threads.length} workers' subscriptions became active`);
        await fire(-k);
        await until(() => warm === threads.length, 300);
      }
    },
    async receipts(n, timeoutMs = 30_000) {
      const ok = await until(() => (arrived.get(n)?.length ?? 0) === threads.length, timeoutMs);
      const list = arrived.get(n) ?? [];
      arrived.delete(n);
      if (!ok)
        throw new Error(`event ${n}: only ${list.length} of ${threads.length} workers received it all`);
      return list;
    },
    async close() {
      await Promise.all(
        threads.map(
          (thread) =>
            new Promise<void>((resolve) => {
              thread.on('message', (message: WorkerMessage) => {
                if (message.kind === 'closed') resolve();
              });
              thread.postMessage({ kind: 'close' });
            }),
        ),
      );
      await Promise.all(threads.map((t) => t.terminate()));
    },
  };
}
