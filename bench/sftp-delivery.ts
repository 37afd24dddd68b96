/**
 * DDEX delivery over SFTP, side by side in one run against one loopback OpenSSH server: a 12-track album
 * of WAV files (about 5 MB each) delivered by the adapter's work (`runPackageWork`: a session, each
 * resource streamed from local-disk storage to a temporary name, fsynced, renamed, its SHA-256 checked,
 * recorded in the database, then the ERN message) beside a bare `ssh2-sftp-client` upload of the same
 * files from the storage directory, with `fastPut` and with `put` of a read stream, each as documented
 * (Nagle's algorithm on) and with TCP no delay (as our session has it). The sides take turns, round after
 * round, each in a fresh remote directory; each is timed from connecting to the connection closed, and
 * its CPU per MB is taken here and in sshd. Then one 1 GiB WAV file delivered alone while this process's
 * RSS is sampled (and by the bare fastPut).
 * Targets: throughput ≥ 0.8 of the fastest bare upload; RSS growth < 64 MB for the 1 GiB file.
 * BENCH_SFTP_ROUNDS (default 5) rounds of each side; BENCH_SFTP_BIG_MB (default 1024) the big file's size.
 */

import { execFileSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from 'ssh2';
import SftpClient from 'ssh2-sftp-client';
import { migrateToLatest, ormConfig } from '../src/app-database.ts';
import type { SftpAdapterOptions } from '../src/domains/delivery/adapters/sftp/options.ts';
import { type PackagedFile, SftpPackage } from '../src/domains/delivery/adapters/sftp/sftp-package.entity.ts';
import { runPackageWork } from '../src/domains/delivery/adapters/sftp/work.ts';
import type { Delivery } from '../src/domains/delivery/delivery.entity.ts';
import { connectStore } from '../src/domains/store-connections/index.ts';
import { createLocalDiskStorage } from '../src/platform/storage/local-disk.ts';
import { type SftpServer, startSftpServer } from '../test/support/sftp-server.ts';
import { musicLike, wavBytes } from '../test/support/synthetic-audio.ts';
import { rssOf, sampleRss } from './support/rss.ts';
import { dropDatabase, freshDatabase } from './support/servers.ts';

const ROUNDS = Number(process.env.BENCH_SFTP_ROUNDS ?? 5);
const BIG_BYTES = Number(process.env.BENCH_SFTP_BIG_MB ?? 1024) * 1024 * 1024;
const TRACKS = 12;
const STORE_ID = 302;
const MB = 1e6;
const MiB = 1024 * 1024;
const SENDER = { DDEX_SENDER_DPID: 'PADPIDA2026BENCH01', DDEX_SENDER_NAME: 'Tributary Bench' };

interface StoredTrack {
  name: string;
  storageKey: string;
  /** The object's file in the storage directory (what the bare client uploads). */
  file: string;
  size: number;
  sha256: string;
}

type BareSide = 'fastPut' | 'put' | 'fastPut, no delay' | 'put, no delay';
type Side = 'ours' | BareSide;
const SIDES: Side[] = ['ours', 'fastPut', 'put', 'fastPut, no delay', 'put, no delay'];
const BARE: BareSide[] = ['fastPut', 'put', 'fastPut, no delay', 'put, no delay'];
const LABELS: Record<Side, string> = {
  ours: 'runPackageWork (ours)',
  fastPut: 'ssh2-sftp-client fastPut',
  put: 'ssh2-sftp-client put(read stream)',
  'fastPut, no delay': 'ssh2-sftp-client fastPut, TCP no delay',
  'put, no delay': 'ssh2-sftp-client put(read stream), TCP no delay',
};

interface Delivered {
  rate: number;
  /** CPU milliseconds per MB sent, of this process and of the sshd session. */
  cpuHere: number;
  cpuSshd: number;
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

function childrenOf(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return text ? text.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
}

function commOf(pid: number): string {
  return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
}

/** CPU seconds of a process's children that it has reaped (cutime + cstime of /proc/<pid>/stat). */
function reapedCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields from the state (3rd) on: cutime is the 16th, cstime the 17th.
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

const cleanups: (() => Promise<unknown>)[] = [];

try {
  const sshd: SftpServer = await startSftpServer();
  cleanups.push(() => sshd.close());
  const sshdPid = childrenOf(process.pid).find((pid) => commOf(pid) === 'sshd');
  if (!sshdPid) throw new Error('the sshd listener is not a child of this process');
  const storageRoot = await mkdtemp(path.join(tmpdir(), 'bench-sftp-storage-'));
  cleanups.push(() => rm(storageRoot, { recursive: true, force: true }));
  const storage = createLocalDiskStorage({
    root: storageRoot,
    publicUrl: 'http://127.0.0.1',
    signingSecret: randomBytes(32).toString('hex'),
  });
  const databaseUrl = await freshDatabase('tributary_bench_sftp');
  cleanups.push(() => dropDatabase(databaseUrl));
  const orm = await MikroORM.init(ormConfig(databaseUrl, 4));
  cleanups.push(() => orm.close());
  await migrateToLatest(orm, databaseUrl);

  const secretKey = randomBytes(32);
  await connectStore(
    orm.em.fork(),
    {
      store: String(STORE_ID),
      sftpUrl: `sftp://${sshd.username}@127.0.0.1:${sshd.port}${sshd.root}`,
      credential: { method: 'private_key', privateKey: sshd.privateKey },
      hostKey: sshd.hostKey,
      recipientDpid: 'PADPIDA00000000302',
      recipientName: 'Bench Store Ingestion',
      choreography: 'release',
    },
    { secretKey, config: SENDER },
  );
  const options: SftpAdapterOptions = {
    storage,
    secretKey,
    sender: { dpid: SENDER.DDEX_SENDER_DPID, name: SENDER.DDEX_SENDER_NAME },
    settings: { retrySeconds: 1, maxAttempts: 3, ackPollSeconds: 60, ackWindowSeconds: 3600 },
    timeouts: { connectMs: 10_000 },
  };
  const fileOf = (key: string) => path.join(storageRoot, ...key.split('/'));

  // --- The album: 12 WAV files of music-like audio, 53–64 s each (4.7–5.6 MB, mono 16-bit 44.1 kHz).
  const owner = randomUUID();
  const album: StoredTrack[] = [];
  for (let i = 1; i <= TRACKS; i++) {
    const bytes = wavBytes(musicLike(7000 + i, 52 + i));
    const name = `0602577000001_01_${String(i).padStart(3, '0')}.wav`;
    const storageKey = `audio/${owner}/track-${i}.wav`;
    await storage.put(storageKey, bytes, { contentType: 'audio/wav' });
    album.push({
      name,
      storageKey,
      file: fileOf(storageKey),
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  }
  const albumBytes = album.reduce((sum, t) => sum + t.size, 0);

  const message = (directory: string) =>
    '<?xml version="1.0" encoding="UTF-8"?>\n<ern:NewReleaseMessage xmlns:ern="http://ddex.net/xml/ern/43">' +
    `<!-- bench package ${directory} --></ern:NewReleaseMessage>\n`;

  /** A package of `tracks` in `directory` (`release` choreography), its row written, ready for work. */
  async function packageOf(directory: string, tracks: StoredTrack[]): Promise<string> {
    const id = `${randomUUID()}:release`;
    const files: PackagedFile[] = tracks.map((t) => ({
      path: `${directory}/resources/${t.name}`,
      storageKey: t.storageKey,
      sha256: t.sha256,
      size: t.size,
    }));
    const em = orm.em.fork();
    em.create(SftpPackage, {
      id,
      deliveryId: randomUUID(),
      kind: 'release',
      batchId: directory.slice(0, 17),
      directory,
      messageFile: '0602577000001.xml',
      message: message(directory),
      batchComplete: false,
      files,
      completed: [],
      nextWorkAt: new Date(),
    });
    await em.flush();
    return id;
  }

  /** Runs the package's work as the delivery runner would; fails unless it ends uploaded. */
  async function work(id: string): Promise<void> {
    const context = {
      em: orm.em.fork(),
      now: new Date(),
      signal: new AbortController().signal,
      delivery: { storeId: STORE_ID } as Readonly<Delivery>,
    };
    await runPackageWork(context, id, options);
    const pkg = await orm.em.fork().findOneOrFail(SftpPackage, { id });
    if (!pkg.uploadedAt) throw new Error(`the package was not uploaded: ${pkg.lastError}`);
  }

  /** Every track arrived under `directory/resources` with its size (and, for ours, the message beside it). */
  async function verify(directory: string, tracks: StoredTrack[], withMessage: boolean): Promise<void> {
    for (const t of tracks) {
      const remote = path.join(sshd.root, directory, 'resources', t.name);
      const { size } = await stat(remote);
      if (size !== t.size) throw new Error(`${remote}: ${size} bytes on the server, ${t.size} sent`);
    }
    if (withMessage) await stat(path.join(sshd.root, directory, '0602577000001.xml'));
  }

  /**
   * The bare upload: connect, make the directory, upload each file, end. ssh2-sftp-client leaves the
   * socket's Nagle algorithm on as documented; the `no delay` sides turn it off on its ssh2 client, as
   * our session does (each request waits for the one before it to be acknowledged otherwise).
   */
  async function bare(side: BareSide, directory: string, tracks: StoredTrack[]): Promise<number> {
    const client = new SftpClient();
    const started = performance.now();
    await client.connect({
      host: '127.0.0.1',
      port: sshd.port,
      username: sshd.username,
      privateKey: sshd.privateKey,
    });
    if (side.endsWith('no delay')) (client as unknown as { client: Client }).client.setNoDelay(true);
    const remoteDir = path.posix.join(sshd.root, directory, 'resources');
    await client.mkdir(remoteDir, true);
    for (const t of tracks) {
      const remote = `${remoteDir}/${t.name}`;
      if (side.startsWith('fastPut')) await client.fastPut(t.file, remote);
      else await client.put(createReadStream(t.file), remote);
    }
    await client.end();
    return (performance.now() - started) / 1000;
  }

  /**
   * CPU seconds so far of this process (all its threads) and of the sshd sessions that have ended (their
   * processes, reaped by the listener, counted in its children's times); waits for the sessions to end.
   */
  async function cpuSeconds(): Promise<{ here: number; sshd: number }> {
    for (const deadline = Date.now() + 2000; childrenOf(sshdPid!).length > 0 && Date.now() < deadline; )
      await new Promise((resolve) => setTimeout(resolve, 5));
    const { user, system } = process.cpuUsage();
    return { here: (user + system) / 1e6, sshd: reapedCpuSeconds(sshdPid!) };
  }

  /** One delivery of `tracks` by `side` into a fresh directory: its seconds, checked on the server. */
  async function deliver(side: Side, directory: string, tracks: StoredTrack[]): Promise<Delivered> {
    const cpuBefore = await cpuSeconds();
    let seconds: number;
    if (side === 'ours') {
      const id = await packageOf(directory, tracks);
      const started = performance.now();
      await work(id);
      seconds = (performance.now() - started) / 1000;
    } else {
      seconds = await bare(side, directory, tracks);
    }
    const cpuAfter = await cpuSeconds();
    await verify(directory, tracks, side === 'ours');
    await rm(path.join(sshd.root, directory), { recursive: true, force: true });
    const megabytes = tracks.reduce((sum, t) => sum + t.size, 0) / MB;
    return {
      rate: megabytes / seconds,
      cpuHere: (1000 * (cpuAfter.here - cpuBefore.here)) / megabytes,
      cpuSshd: (1000 * (cpuAfter.sshd - cpuBefore.sshd)) / megabytes,
    };
  }

  // --- Throughput: a warm-up delivery of each side, then ROUNDS rounds, the order rotated each round.
  const load = () => loadavg()[0]!.toFixed(2);
  const loadBefore = load();
  for (const side of SIDES) await deliver(side, `warm-${side}`, album);
  const rates = new Map<Side, number[]>(SIDES.map((side) => [side, []]));
  const cpuHere = new Map<Side, number[]>(SIDES.map((side) => [side, []]));
  const cpuSshd = new Map<Side, number[]>(SIDES.map((side) => [side, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < SIDES.length; k++) {
      const side = SIDES[(round + k) % SIDES.length]!;
      const delivered = await deliver(side, `r${round}-${side}`, album);
      rates.get(side)!.push(delivered.rate);
      cpuHere.get(side)!.push(delivered.cpuHere);
      cpuSshd.get(side)!.push(delivered.cpuSshd);
    }
  }
  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted.at(-1)! };
  };
  const sizes = album.map((t) => t.size / MB);
  console.log(
    `album: ${TRACKS} WAV files, ${(albumBytes / MB).toFixed(1)} MB (${Math.min(...sizes).toFixed(1)}–` +
      `${Math.max(...sizes).toFixed(1)} MB each), loopback OpenSSH sshd; ${ROUNDS} rounds of each ` +
      `side after a warm-up, the order rotated each round; load average ${loadBefore} → ${load()}`,
  );
  const header = ['side', 'median MB/s', 'min', 'max', 'CPU ms/MB here', 'sshd'];
  const rows = SIDES.map((side) => {
    const s = stats(rates.get(side)!);
    return [
      LABELS[side],
      s.median.toFixed(1),
      s.min.toFixed(1),
      s.max.toFixed(1),
      stats(cpuHere.get(side)!).median.toFixed(2),
      stats(cpuSshd.get(side)!).median.toFixed(2),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(format(header));
  for (const row of rows) console.log(format(row));
  const ours = stats(rates.get('ours')!).median;
  const fastest = (sides: BareSide[]) =>
    sides.reduce((best, side) =>
      stats(rates.get(side)!).median > stats(rates.get(best)!).median ? side : best,
    );
  const baseline = fastest(BARE);
  const ratio = ours / stats(rates.get(baseline)!).median;
  // The same ratio round by round (each round's sides ran within seconds of each other): a neighbour's
  // load that comes and goes moves the rounds, less the ratio within one.
  const perRound = stats(rates.get('ours')!.map((rate, round) => rate / rates.get(baseline)![round]!));
  const documented = fastest(['fastPut', 'put']);
  console.log(
    `ours ÷ bare (${LABELS[baseline]}, the fastest bare upload): ${ratio.toFixed(2)} of the medians, ` +
      `${perRound.median.toFixed(2)} the median round (${perRound.min.toFixed(2)}–${perRound.max.toFixed(2)}) ` +
      `(target ≥ 0.8) ${Math.min(ratio, perRound.median) >= 0.8 ? 'HOLDS' : 'MISSED'}`,
  );
  console.log(
    `ours ÷ ${LABELS[documented]} as documented (Nagle on): ` +
      `${(ours / stats(rates.get(documented)!).median).toFixed(2)} of the medians`,
  );
  console.log(
    '  (each side timed from connecting to the connection closed; ours also reads the package and the ' +
      'connection rows, fsyncs and renames each file and records it. CPU: medians of the rounds, this ' +
      "process's threads and the sshd session's processes; PostgreSQL's is not counted)",
  );

  // --- Memory: one big WAV file, streamed into storage (never whole in memory), delivered alone.
  const bigKey = `audio/${owner}/big.wav`;
  const bigHash = createHash('sha256');
  const loop = wavBytes(musicLike(9001, 30)).subarray(44); // 30 s of PCM, repeated
  async function* bigWav(): AsyncGenerator<Buffer> {
    const header = wavBytes(new Float32Array(0));
    header.writeUInt32LE(36 + BIG_BYTES - 44, 4);
    header.writeUInt32LE(BIG_BYTES - 44, 40);
    bigHash.update(header);
    yield header;
    for (let left = BIG_BYTES - 44; left > 0; ) {
      const chunk = loop.subarray(0, Math.min(left, loop.length));
      bigHash.update(chunk);
      left -= chunk.length;
      yield chunk;
    }
  }
  await storage.put(bigKey, Readable.from(bigWav()), { contentType: 'audio/wav' });
  const big: StoredTrack = {
    name: 'big.wav',
    storageKey: bigKey,
    file: fileOf(bigKey),
    size: BIG_BYTES,
    sha256: bigHash.digest('hex'),
  };
  if ((await stat(big.file)).size !== BIG_BYTES) throw new Error('the big file was not stored whole');

  async function bigDelivery(side: 'ours' | 'fastPut, no delay') {
    const directory = `big-${side}`;
    const id = side === 'ours' ? await packageOf(directory, [big]) : null;
    const before = rssOf(process.pid);
    const sampler = sampleRss(process.pid, 20);
    const started = performance.now();
    if (side === 'ours') await work(id!);
    else await bare(side, directory, [big]);
    const seconds = (performance.now() - started) / 1000;
    const peak = sampler.stop();
    await verify(directory, [big], side === 'ours');
    await rm(path.join(sshd.root, directory), { recursive: true, force: true });
    await cpuSeconds(); // the session has ended before the next one starts
    return { seconds, before: before / MiB, peak: peak / MiB, growth: (peak - before) / MiB };
  }
  const bigOurs = await bigDelivery('ours');
  const bigBare = await bigDelivery('fastPut, no delay');
  const line = (label: string, r: typeof bigOurs) =>
    `${label}: ${(BIG_BYTES / MB / r.seconds).toFixed(1)} MB/s; this process's RSS ${r.before.toFixed(0)} MiB ` +
    `before, ${r.peak.toFixed(0)} MiB peak, growth ${r.growth.toFixed(1)} MiB`;
  console.log(`one ${(BIG_BYTES / MiB).toFixed(0)} MiB WAV file, streamed from storage:`);
  console.log(
    `  ${line('runPackageWork (ours)', bigOurs)} (target < 64 MB) ${bigOurs.growth < 64 ? 'HOLDS' : 'MISSED'}`,
  );
  console.log(`  ${line(LABELS['fastPut, no delay'], bigBare)}`);
} finally {
  for (const cleanup of cleanups.reverse()) {
    await cleanup().catch((error: unknown) => console.error('cleanup failed:', error));
  }
}
