import autocannon, { type Request } from 'autocannon';
import type { Measurement } from './measure.ts';

/** One request of a mix; `setup` fills it in afresh before each send (a random account, a new key). */
export interface MixRequest {
  method: 'GET' | 'POST';
  setup: (request: Request) => Request;
}

export interface SpreadMeasurement extends Measurement {
  /** Responses each server answered, in the order of `urls`. */
  perServer: number[];
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/**
 * One autocannon per server, all at once, `connections` spread evenly over them, each connection
 * cycling through `mix`. Latencies of every response are pooled, so p50/p99 are those of the whole
 * load rather than an average of each server's percentiles; non-2xx answers count as errors.
 */
export async function measureSpread(
  name: string,
  urls: string[],
  mix: MixRequest[],
  seconds: number,
  connections: number,
): Promise<SpreadMeasurement> {
  const latencies: number[] = [];
  const perServer = urls.map(() => 0);
  let errors = 0;
  const started = performance.now();
  const runs = urls.map((url, index) => {
    const share = Math.floor(connections / urls.length) + (index < connections % urls.length ? 1 : 0);
    return new Promise<void>((resolve, reject) => {
      const instance = autocannon(
        {
          url,
          connections: share,
          duration: seconds,
          requests: mix.map((entry) => ({ method: entry.method, setupRequest: entry.setup })),
        },
        (err, result) => {
          if (err) return reject(err);
          errors += result.errors + result.timeouts;
          resolve();
        },
      );
      instance.on(
        'response',
        (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
          latencies.push(responseTime);
          perServer[index]! += 1;
          if (statusCode < 200 || statusCode >= 300) errors++;
        },
      );
    });
  });
  await Promise.all(runs);
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    requestsPerSecond: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
    perServer,
  };
}
