import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import pg from 'pg';

/** Where the time went while a load ran, in cores (1.0 = one core busy all the time). */
export interface BoundSample {
  /** Each server process (its event loop and libuv threads). */
  serverCores: number[];
  /** The PostgreSQL backends connected to the bench database. */
  databaseCores: number;
  /** Every other PostgreSQL process: WAL writer, checkpointer, other databases on the machine. */
  otherPostgresCores: number;
  redisCores: number;
  /** The load generator (this process). */
  loadCores: number;
  /** The whole machine, whoever ran. */
  machineCores: number;
  cpuCount: number;
  /** Mean number of the bench database's backends running a statement, and of those waiting on a lock. */
  activeBackends: number;
  lockWaiting: number;
  /** What active backends waited on most, as share of samples ("CPU" when not waiting). */
  topWaits: { event: string; share: number }[];
  /** The statement most often seen waiting on a lock (its first words), if any waited. */
  lockedStatement: string | null;
  /** That statement's share of the lock waits (statements carry their values: one row's, or many). */
  lockedStatementShare: number;
  /** What the holder of that lock was doing, most often: its state and its last statement. */
  lockHolder: string | null;
}

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process, in ticks; null once it has gone. */
function processTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

function pidsNamed(names: string[]): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (names.includes(comm)) pids.push(Number(entry));
    } catch {
      // gone between the listing and the read
    }
  }
  return pids;
}

function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((sum, v) => sum + v, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

/** CPU ticks per pid, from the first time a pid was seen to the last: pids may come and go. */
class TickLedger {
  private first = new Map<number, number>();
  private last = new Map<number, number>();
  observe(pid: number): void {
    const ticks = processTicks(pid);
    if (ticks === null) return;
    if (!this.first.has(pid)) this.first.set(pid, ticks);
    this.last.set(pid, ticks);
  }
  ticks(pids?: Iterable<number>): number {
    let sum = 0;
    for (const pid of pids ?? this.last.keys()) sum += (this.last.get(pid) ?? 0) - (this.first.get(pid) ?? 0);
    return sum;
  }
  seen(): number[] {
    return [...this.last.keys()];
  }
}

/**
 * Samples, every `intervalMs` while a load runs, the CPU of the server processes, of PostgreSQL (the
 * bench database's backends apart from the rest), Redis, this process and the machine, and the bench
 * database's backends in pg_stat_activity (what they wait on, lock waits above all).
 */
export async function startBoundSampler(
  adminUrl: string,
  database: string,
  serverPids: number[],
  intervalMs = 200,
): Promise<{ stop(): Promise<BoundSample> }> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const ledger = new TickLedger();
  const databasePids = new Set<number>();
  const waits = new Map<string, number>();
  const lockedStatements = new Map<string, number>();
  const blockers = new Map<string, number>();
  let samples = 0;
  let activeSum = 0;
  let lockSum = 0;
  const startedAt = performance.now();
  const load = process.cpuUsage();
  const machine = machineTicks();

  const sample = async () => {
    const { rows } = await client.query<{
      pid: number;
      state: string | null;
      wait: string | null;
      query: string;
      blocker: number | null;
    }>(
      `SELECT pid, state, wait_event_type || ':' || wait_event AS wait, left(query, 160) AS query,
              (pg_blocking_pids(pid))[1] AS blocker
         FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [database],
    );
    samples++;
    for (const row of rows) {
      databasePids.add(row.pid);
      if (row.state !== 'active') continue;
      activeSum++;
      const event = row.wait ?? 'CPU';
      if (event.startsWith('Lock:')) {
        lockSum++;
        const statement = row.query.replace(/\s+/g, ' ').trim();
        lockedStatements.set(statement, (lockedStatements.get(statement) ?? 0) + 1);
        const holder = rows.find((other) => other.pid === row.blocker);
        const described = holder
          ? `${holder.state}${holder.wait ? ` (${holder.wait})` : ''} after "${holder.query.replace(/\s+/g, ' ').trim()}"`
          : 'gone';
        blockers.set(described, (blockers.get(described) ?? 0) + 1);
      }
      waits.set(event, (waits.get(event) ?? 0) + 1);
    }
    for (const pid of [...serverPids, ...pidsNamed(['postgres', 'redis-server'])]) ledger.observe(pid);
  };
  await sample();
  let running = true;
  const loop = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
      if (running) await sample();
    }
  })();

  return {
    stop: async () => {
      running = false;
      await loop;
      await sample();
      await client.end();
      const seconds = (performance.now() - startedAt) / 1000;
      const cores = (ticks: number) => ticks / TICKS_PER_SECOND / seconds;
      const used = process.cpuUsage(load);
      const machineNow = machineTicks();
      const cpuCount = cpus().length;
      const redisPids = pidsNamed(['redis-server']);
      const postgresPids = ledger
        .seen()
        .filter((pid) => !serverPids.includes(pid) && !redisPids.includes(pid));
      const databaseTicks = ledger.ticks([...databasePids]);
      const activeSamples = [...waits.values()].reduce((sum, n) => sum + n, 0) || 1;
      return {
        serverCores: serverPids.map((pid) => cores(ledger.ticks([pid]))),
        databaseCores: cores(databaseTicks),
        otherPostgresCores: cores(ledger.ticks(postgresPids) - databaseTicks),
        redisCores: cores(ledger.ticks(redisPids)),
        loadCores: (used.user + used.system) / 1e6 / seconds,
        machineCores:
          ((machineNow.busy - machine.busy) / Math.max(1, machineNow.total - machine.total)) * cpuCount,
        cpuCount,
        activeBackends: activeSum / samples,
        lockWaiting: lockSum / samples,
        topWaits: [...waits.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([event, n]) => ({ event, share: n / activeSamples })),
        lockedStatement: [...lockedStatements.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
        lockedStatementShare: Math.max(0, ...lockedStatements.values()) / Math.max(1, lockSum),
        lockHolder: [...blockers.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
      };
    },
  };
}

/** One line naming what held the load back, from a sample. */
export function verdict(sample: BoundSample, poolPerServer: number): string {
  const servers = sample.serverCores.reduce((sum, c) => sum + c, 0);
  const parts = [
    `Node ${servers.toFixed(2)}`,
    `PostgreSQL ${(sample.databaseCores + sample.otherPostgresCores).toFixed(2)}`,
    `load generator ${sample.loadCores.toFixed(2)}`,
    `Redis ${sample.redisCores.toFixed(2)}`,
  ];
  const shares = `${parts.join(', ')} of ${sample.machineCores.toFixed(2)} busy cores`;
  // Lock waits are the bound only when no CPU is full: on a full machine a lock's holder is slow
  // because it waits for CPU, and the waits are a symptom; they are named either way.
  const locks =
    sample.lockWaiting >= 0.5
      ? `${sample.lockWaiting.toFixed(1)} backends waiting on a lock on average, ` +
        `${(sample.lockedStatementShare * 100).toFixed(0)}% of the time in "${sample.lockedStatement}"`
      : null;
  const withLocks = (text: string) => (locks ? `${text}; lock waits: ${locks}` : text);
  if (sample.machineCores >= 0.85 * sample.cpuCount) {
    const largest = [
      ['the Node servers', servers],
      ['PostgreSQL', sample.databaseCores + sample.otherPostgresCores],
      ['the load generator', sample.loadCores],
    ].sort((a, b) => (b[1] as number) - (a[1] as number))[0]![0];
    return withLocks(`the machine's ${sample.cpuCount} cores are full, ${largest} taking most (${shares})`);
  }
  const busiest = Math.max(...sample.serverCores);
  if (busiest >= 0.85) return withLocks(`Node CPU: one server's event loop near a full core (${shares})`);
  if (locks && sample.lockWaiting >= 0.5 * sample.activeBackends) return `locks: ${locks} (${shares})`;
  if (sample.activeBackends >= 0.85 * poolPerServer * sample.serverCores.length) {
    return `database connections: the pools are all in use (${sample.activeBackends.toFixed(1)} active); ${shares}`;
  }
  return withLocks(`no resource full: waiting on round trips (${shares})`);
}
