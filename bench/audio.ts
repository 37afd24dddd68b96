/**
 * Audio intelligence, in one run: the AI detector (accuracy, false positives on human music, MP3
 * flips, compute per minute of audio) and the fingerprint registry (index speed, recall of clean and
 * distorted 10 s excerpts over 1,000 indexed synthetic tracks, false positives over 1,000 unrelated
 * queries, lookup p50/p99 at 1k and at 100k recordings). Targets: recall ≥ 98% clean and ≥ 90%
 * distorted, 0 false positives, lookup ≤ 50 ms at 100k. Fixtures are generated (test/support).
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '../src/app-database.ts';
import { MATCH_THRESHOLD_PERCENT } from '../src/domains/audio/acr-check.ts';
import { createLocalAiDetector } from '../src/domains/audio/detection/local-detector.ts';
import { fingerprintAudio, fingerprintPcm } from '../src/domains/audio/registry/chromaprint.ts';
import { findBestMatch, indexRecording } from '../src/domains/audio/registry/registry.ts';
import { musicLike, reencode, throughDecoder, writeWav } from '../test/support/synthetic-audio.ts';
import { dropDatabase, freshDatabase } from './support/servers.ts';

const TRACKS = Number(process.env.BENCH_AUDIO_TRACKS ?? 1000);
const DISTORTED_QUERIES = Number(process.env.BENCH_AUDIO_DISTORTED ?? 200);
const DETECTION_SEEDS = Number(process.env.BENCH_AUDIO_DETECTION ?? 20);
const FILLER = Number(process.env.BENCH_AUDIO_FILLER ?? 99_000);
const FP_RATE = 11_025;
const TRACK_SECONDS = 15;
const EXCERPT_SECONDS = 10;

const dir = await mkdtemp(path.join(tmpdir(), 'bench-audio-'));
const pct = (n: number, d: number) => `${((100 * n) / Math.max(d, 1)).toFixed(1)}%`;
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const fileSource = async (file: string) => ({
  name: path.basename(file),
  contentType: 'audio/wav',
  size: (await stat(file)).size,
  sha256: '',
  open: async () => createReadStream(file),
});

// --- AI detection -----------------------------------------------------------------------------
const detector = createLocalAiDetector();
const detection = { tp: 0, tn: 0, fp: 0, fn: 0, mp3Flips: 0, mp3FalsePositives: 0, mp3Total: 0 };
for (let seed = 1; seed <= DETECTION_SEEDS; seed++) {
  const human = musicLike(1000 + seed, 12);
  for (const [ai, samples] of [
    [false, human],
    [true, throughDecoder(human, seed)],
  ] as const) {
    const wav = path.join(dir, `d${seed}-${ai}.wav`);
    const mp3 = path.join(dir, `d${seed}-${ai}.mp3`);
    await writeWav(wav, samples);
    await reencode(wav, mp3, { bitrate: '128k' });
    const clean = (await detector.analyse(await fileSource(wav))).containsAi;
    const coded = (await detector.analyse(await fileSource(mp3))).containsAi;
    if (ai) clean ? detection.tp++ : detection.fn++;
    else clean ? detection.fp++ : detection.tn++;
    detection.mp3Total++;
    if (coded !== clean) detection.mp3Flips++;
    if (!ai && coded) detection.mp3FalsePositives++;
  }
}
const minute = path.join(dir, 'minute.wav');
await writeWav(minute, musicLike(7, 60));
let started = performance.now();
await detector.analyse(await fileSource(minute));
const detectSeconds = (performance.now() - started) / 1000;

console.log('AI detection (spectral-peaks-v1), generated music vs the same through a stride-8 decoder chain');
console.log(
  `  files                      ${DETECTION_SEEDS} human + ${DETECTION_SEEDS} AI, 12 s, plus each as 128 kbps MP3`,
);
console.log(`  accuracy (WAV)             ${pct(detection.tp + detection.tn, DETECTION_SEEDS * 2)}`);
console.log(
  `  false positives (human)    ${pct(detection.fp, DETECTION_SEEDS)} WAV, ${pct(detection.mp3FalsePositives, DETECTION_SEEDS)} MP3`,
);
console.log(
  `  verdict kept through MP3   ${pct(detection.mp3Total - detection.mp3Flips, detection.mp3Total)}`,
);
console.log(`  compute per minute         ${detectSeconds.toFixed(2)} s (decode + FFT, one core)`);

// --- Fingerprint registry ---------------------------------------------------------------------
const databaseUrl = await freshDatabase('tributary_bench_audio');
const orm = await openDatabase(databaseUrl, 2);
await migrateToLatest(orm, databaseUrl);

started = performance.now();
const { seconds: minuteSeconds } = await fingerprintAudio(minute);
const indexRealTime = minuteSeconds / ((performance.now() - started) / 1000);

const tracks: Float32Array[] = [];
let generating = 0;
let fingerprinting = 0;
for (let i = 0; i < TRACKS; i++) {
  let t = performance.now();
  const samples = musicLike(50_000 + i, TRACK_SECONDS, FP_RATE);
  generating += performance.now() - t;
  tracks.push(samples);
  t = performance.now();
  const fingerprint = await fingerprintPcm(toInt16(samples));
  fingerprinting += performance.now() - t;
  await indexRecording(orm.em.fork(), {
    source: 'catalogue',
    accountId: null,
    releaseId: null,
    trackPosition: null,
    externalKey: `bench:${i}`,
    title: `Track ${i}`,
    artist: null,
    isrc: null,
    albumName: null,
    label: null,
    dspLinks: [],
    durationSeconds: TRACK_SECONDS,
    fingerprint,
  });
}

function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++)
    out[i] = Math.round(Math.max(-1, Math.min(1, samples[i] ?? 0)) * 32767);
  return out;
}
const excerptOf = (samples: Float32Array, i: number) => {
  const start = Math.floor((((i * 7919) % 1000) / 1000) * (TRACK_SECONDS - EXCERPT_SECONDS) * FP_RATE);
  return samples.subarray(start, start + EXCERPT_SECONDS * FP_RATE);
};

interface Outcome {
  hit: boolean;
  ms: number;
}
async function lookup(fingerprint: Int32Array, expected: string | null): Promise<Outcome> {
  const t = performance.now();
  const match = await findBestMatch(orm.em.fork(), fingerprint);
  const ms = performance.now() - t;
  const matched = match !== null && match.queryMatchPercentage > MATCH_THRESHOLD_PERCENT;
  return { hit: expected === null ? matched : matched && match?.recording.title === expected, ms };
}

const clean: Outcome[] = [];
for (let i = 0; i < TRACKS; i++) {
  clean.push(await lookup(await fingerprintPcm(toInt16(excerptOf(tracks[i]!, i))), `Track ${i}`));
}
const distorted: Outcome[] = [];
for (let n = 0; n < DISTORTED_QUERIES; n++) {
  const i = Math.floor((n * TRACKS) / DISTORTED_QUERIES);
  const wav = path.join(dir, 'q.wav');
  const mp3 = path.join(dir, 'q.mp3');
  await writeWav(wav, tracks[i]!, FP_RATE);
  const start = (((i * 7919) % 1000) / 1000) * (TRACK_SECONDS - EXCERPT_SECONDS);
  await reencode(wav, mp3, {
    startSeconds: start,
    seconds: EXCERPT_SECONDS,
    gainDb: -6,
    noise: 0.03,
    bitrate: '64k',
  });
  distorted.push(await lookup((await fingerprintAudio(mp3)).fingerprint, `Track ${i}`));
}
const strangers: Outcome[] = [];
for (let i = 0; i < TRACKS; i++) {
  const samples = musicLike(900_000 + i, EXCERPT_SECONDS, FP_RATE);
  strangers.push(await lookup(await fingerprintPcm(toInt16(samples)), null));
}

// 100k: synthetic lookup keys (random 20-bit prefixes, as many as a one-minute recording has),
// written by the database itself; their fingerprints are not needed since they are never candidates.
started = performance.now();
const connection = orm.em.getConnection();
const [gin] = await connection.execute<{ indexdef: string }[]>(
  `select indexdef from pg_indexes where indexname = 'registry_recordings_lookup_keys_gin'`,
);
// A bulk load: the GIN index is built once after the rows, as one would load a large catalogue.
await connection.execute('drop index registry_recordings_lookup_keys_gin');
await connection.execute(
  `insert into registry_recordings (id, source, external_key, title, dsp_links, duration_seconds, fingerprint, lookup_keys, created_at)
   select gen_random_uuid(), 'catalogue', 'filler:' || n, 'Filler ' || n, '[]', 60, '[]',
          array(select distinct (random() * 1048575)::int4 from generate_series(1, 480) where n > 0), now()
     from generate_series(1, ${FILLER}) as n`,
);
await orm.em.transactional(async (em) => {
  await em.execute("set local maintenance_work_mem = '512MB'");
  await em.execute(gin?.indexdef ?? '');
});
await connection.execute('vacuum analyze registry_recordings');
const fillSeconds = (performance.now() - started) / 1000;
const at100k: Outcome[] = [];
for (let i = 0; i < Math.min(TRACKS, 300); i++) {
  at100k.push(await lookup(await fingerprintPcm(toInt16(excerptOf(tracks[i]!, i))), `Track ${i}`));
}

const rate = (list: Outcome[]) =>
  `${pct(list.filter((o) => o.hit).length, list.length)} (${list.filter((o) => o.hit).length}/${list.length})`;
const ms = (list: Outcome[]) => {
  const all = list.map((o) => o.ms);
  return `p50 ${quantile(all, 0.5).toFixed(1)} ms, p99 ${quantile(all, 0.99).toFixed(1)} ms`;
};
console.log('\nFingerprint registry (Chromaprint WebAssembly, intarray GIN, alignment)');
console.log(
  `  index speed                ${indexRealTime.toFixed(0)}× real time per core (ffmpeg decode + fingerprint)`,
);
console.log(
  `  fingerprint only           ${((TRACKS * TRACK_SECONDS) / (fingerprinting / 1000)).toFixed(0)}× real time (PCM in memory)`,
);
console.log(
  `  indexed tracks             ${TRACKS} synthetic, ${TRACK_SECONDS} s (generated in ${(generating / 1000).toFixed(0)} s)`,
);
console.log(`  recall, clean 10 s         ${rate(clean)}`);
console.log(`  recall, distorted 10 s     ${rate(distorted)}  (noise, -6 dB, 64 kbps MP3)`);
console.log(
  `  false positives            ${strangers.filter((o) => o.hit).length} of ${strangers.length} unrelated queries`,
);
console.log(`  lookup at ${TRACKS}              ${ms(clean)}`);
console.log(
  `  lookup at ${TRACKS + FILLER}           ${ms(at100k)}  (recall ${rate(at100k)}; ${FILLER} synthetic key sets written in ${fillSeconds.toFixed(0)} s)`,
);

await orm.close();
await dropDatabase(databaseUrl);
await rm(dir, { recursive: true, force: true });
