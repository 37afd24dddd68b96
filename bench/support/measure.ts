import autocannon, { type Request } from 'autocannon';

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function measureHttp(
  name: string,
  options: {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    /** Changes each request before it is sent (headers, body): many accounts, unique keys. */
    setupRequest?: (request: Request) => Request;
  },
  seconds: number,
  connections: number,
): Promise<Measurement> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body ? { body: options.body } : {}),
    ...(options.setupRequest ? { requests: [{ setupRequest: options.setupRequest }] } : {}),
    connections,
    duration: seconds,
  });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** Runs `operation` back to back with `concurrency` in flight, like autocannon does over HTTP. */
export async function measureInProcess(
  name: string,
  operation: () => Promise<unknown>,
  seconds: number,
  concurrency: number,
): Promise<Measurement> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const start = performance.now();
      try {
        await operation();
      } catch {
        errors++;
      }
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { name, requestsPerSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors };
}

/**
 * In-process calls compared with each other: each is warmed up, then they take turns in short rounds
 * (A B C A B C …) so that GC pauses, JIT tiers and a neighbour's load fall on all of them alike; each
 * row reports its median round.
 */
export async function measureInterleaved(
  calls: Record<string, () => Promise<unknown>>,
  seconds: number,
  rounds = 7,
): Promise<Measurement[]> {
  const entries = Object.entries(calls);
  for (const [name, call] of entries) await measureInProcess(name, call, 0.5, 1);
  const runs = new Map<string, Measurement[]>(entries.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, call] of entries)
      runs.get(name)!.push(await measureInProcess(name, call, seconds / rounds, 1));
  }
  return entries.map(([name]) => {
    const sorted = runs.get(name)!.sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
    return sorted[Math.floor(sorted.length / 2)]!;
  });
}

export function printTable(rows: Measurement[]): void {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors'];
  const lines = rows.map((r) => [
    r.name,
    r.requestsPerSecond.toFixed(0),
    r.p50.toFixed(2),
    r.p99.toFixed(2),
    String(r.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}
