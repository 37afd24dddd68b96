import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import autocannon, { type Request } from 'autocannon';

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server process's CPU time (user + system) per answered request, when its pid was given. */
  serverCpuMicros?: number;
  /** Of that, the system (kernel) time: socket reads and writes, wake-ups of the peers. */
  serverSystemMicros?: number;
  /**
   * With `split`: the CPU time per request of every PostgreSQL process on the machine (backends and
   * background workers) and of the bench process itself (the load generator, or the client issuing the
   * SQL), so that where a machine's cores went is read beside the throughput.
   */
  databaseCpuMicros?: number;
  clientCpuMicros?: number;
}

const CLOCK_TICKS_PER_SECOND =
  Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU seconds a process has used so far, in user space and in the kernel. */
interface CpuSeconds {
  user: number;
  system: number;
}

/**
 * CPU seconds a process has used (user + system), from /proc: on a machine shared with other work
 * its CPU per request moves less than its throughput does.
 */
function cpuSecondsOf(pid: number): CpuSeconds {
  return cpuSecondsIn(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** The user and system CPU seconds a `/proc/<pid>/stat` line records. */
function cpuSecondsIn(stat: string): CpuSeconds {
  const fields = stat.split(') ')[1]!.split(' ');
  return {
    user: Number(fields[11]) / CLOCK_TICKS_PER_SECOND,
    system: Number(fields[12]) / CLOCK_TICKS_PER_SECOND,
  };
}

/**
 * CPU seconds used so far by each PostgreSQL process of the machine (the processes named `postgres`:
 * the backends, and the checkpointer, WAL writer and autovacuum the writes cost), by pid.
 */
function databaseCpuSeconds(): Map<string, number> {
  const used = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) < 0x30 || entry.charCodeAt(0) > 0x39) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes(' (postgres) ')) continue;
      const { user, system } = cpuSecondsIn(stat);
      used.set(entry, user + system);
    } catch {
      // The process ended while the list was read.
    }
  }
  return used;
}

/**
 * The CPU seconds PostgreSQL's processes used between two readings: what each process alive at the
 * second used since the first (all of it for one started in between). A connection closed in between
 * (a pool's idle timeout) takes what it used since the first reading with it: never a negative share.
 */
function databaseCpuBetween(before: Map<string, number>, after: Map<string, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** Where the CPU of a measured stretch went, per request: the database's and the bench process's own. */
function cpuSplit(): (requests: number) => Pick<Measurement, 'databaseCpuMicros' | 'clientCpuMicros'> {
  const database = databaseCpuSeconds();
  const client = process.cpuUsage();
  return (requests) => {
    if (requests === 0) return {};
    const own = process.cpuUsage(client);
    return {
      databaseCpuMicros: (databaseCpuBetween(database, databaseCpuSeconds()) * 1e6) / requests,
      clientCpuMicros: (own.user + own.system) / requests,
    };
  };
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
    /** The server's pid: its CPU time per request is measured too. */
    serverPid?: number;
    /** Also the database's and the bench process's CPU per request (databaseCpuMicros, clientCpuMicros). */
    split?: boolean;
  },
  seconds: number,
  connections: number,
): Promise<Measurement> {
  const cpuBefore = options.serverPid ? cpuSecondsOf(options.serverPid) : { user: 0, system: 0 };
  const split = options.split ? cpuSplit() : null;
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
    ...(options.serverPid && result.requests.total > 0
      ? serverCpuPerRequest(cpuBefore, cpuSecondsOf(options.serverPid), result.requests.total)
      : {}),
    ...split?.(result.requests.total),
  };
}

function serverCpuPerRequest(
  before: CpuSeconds,
  after: CpuSeconds,
  requests: number,
): Pick<Measurement, 'serverCpuMicros' | 'serverSystemMicros'> {
  const system = after.system - before.system;
  return {
    serverCpuMicros: ((after.user - before.user + system) * 1e6) / requests,
    serverSystemMicros: (system * 1e6) / requests,
  };
}

/**
 * Runs `operation` back to back with `concurrency` in flight, like autocannon does over HTTP; with
 * `split`, also the database's and this process's CPU per operation.
 */
export async function measureInProcess(
  name: string,
  operation: () => Promise<unknown>,
  seconds: number,
  concurrency: number,
  options: { split?: boolean } = {},
): Promise<Measurement> {
  const split = options.split ? cpuSplit() : null;
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
  return {
    name,
    requestsPerSecond: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    errors,
    ...split?.(latencies.length),
  };
}

/** The middle value (the upper of the two middle ones for an even count); the values are not reordered. */
export const median = (values: readonly number[]): number =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

/** The round of median throughput, with its own latencies and CPU: one real measurement, not a blend. */
export function medianRound(rounds: Measurement[]): Measurement {
  const sorted = [...rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor(sorted.length / 2)]!;
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
  return entries.map(([name]) => medianRound(runs.get(name)!));
}

export function printTable(rows: Measurement[]): void {
  const withCpu = rows.some((r) => r.serverCpuMicros !== undefined);
  const withSplit = rows.some((r) => r.databaseCpuMicros !== undefined);
  const micros = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(0));
  const header = [
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    ...(withCpu ? ['server CPU µs/req', 'of it system'] : []),
    ...(withSplit ? ['database CPU µs/req', 'bench process CPU µs/req'] : []),
  ];
  const lines = rows.map((r) => [
    r.name,
    r.requestsPerSecond.toFixed(0),
    r.p50.toFixed(2),
    r.p99.toFixed(2),
    String(r.errors),
    ...(withCpu ? [micros(r.serverCpuMicros), micros(r.serverSystemMicros)] : []),
    ...(withSplit ? [micros(r.databaseCpuMicros), micros(r.clientCpuMicros)] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}
