/**
 * Chunked upload of a 1 GB file on loopback at the recommended chunk size: Tributary's chunk endpoint
 * against a bare Node HTTP server writing the same chunks to disk, in one run. Prints MiB/s of each, the
 * ratio (target ≥ 0.9) and the server's peak RSS growth (target < 64 MB); then the cover-art
 * normalisation time of a 4000×4000 JPEG.
 */
import path from 'node:path';
import sharp from 'sharp';
import { normaliseCoverArt } from '../src/domains/uploads/media/index.ts';
import { rssOf, sampleRss } from './support/rss.ts';
import { benchApp, startChild } from './support/servers.ts';

const TOTAL_BYTES = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 * 1024 * 1024);
const MiB = 1024 * 1024;
/** RSS is also measured from this chunk on: growth past warm-up is what would scale with file size. */
const WARM_UP_CHUNKS = 8;

const bench = await benchApp('tributary_bench_uploads');
const { app, dataDir } = bench;
const { token } = bench.account;
const bare = await startChild('bench/support/bare-chunk-server.ts', {}, /listening on (\S+)/);

async function upload(
  name: string,
  pid: number,
  chunkUrl: string,
  headers: (index: number) => Record<string, string>,
  chunkBytes: number,
) {
  const chunk = new Uint8Array(chunkBytes);
  for (let i = 0; i < chunk.length; i += 4096) chunk[i] = i & 0xff;
  const count = Math.ceil(TOTAL_BYTES / chunkBytes);
  const baseline = rssOf(pid);
  const sampler = sampleRss(pid);
  let warmSampler: ReturnType<typeof sampleRss> | null = null;
  let warmBaseline = 0;
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    if (index === WARM_UP_CHUNKS) {
      warmBaseline = rssOf(pid);
      warmSampler = sampleRss(pid);
    }
    const size = Math.min(chunkBytes, TOTAL_BYTES - index * chunkBytes);
    const response = await fetch(chunkUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', ...headers(index) },
      body: chunk.subarray(0, size),
    });
    if (!response.ok)
      throw new Error(`${name}: chunk ${index} → ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = sampler.stop();
  const warmPeak = warmSampler?.stop() ?? peak;
  return {
    name,
    mibPerSecond: TOTAL_BYTES / MiB / seconds,
    seconds,
    rssGrowthMiB: (peak - baseline) / MiB,
    rssGrowthAfterWarmUpMiB: (warmPeak - warmBaseline) / MiB,
  };
}

try {
  const created = await fetch(`${app.url}/v1/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'audio', file_name: 'bench.wav', file_size: TOTAL_BYTES }),
  });
  const session = (await created.json()) as {
    session_id: string;
    upload_token: string;
    chunk_endpoint: string;
    recommended_chunk_bytes: number;
  };
  const chunkBytes = session.recommended_chunk_bytes;

  const ours = await upload(
    'Tributary chunk endpoint',
    app.process.pid!,
    session.chunk_endpoint,
    (index) => ({
      'x-mcp-upload-token': session.upload_token,
      'x-session-id': session.session_id,
      'x-chunk-index': String(index),
    }),
    chunkBytes,
  );
  const floor = await upload(
    'bare Node server, same chunks',
    bare.process.pid!,
    `${bare.url}/chunk`,
    (index) => ({ 'x-chunk-index': String(index) }),
    chunkBytes,
  );

  console.log(
    `chunked upload of ${(TOTAL_BYTES / MiB).toFixed(0)} MiB in ${chunkBytes / MiB} MiB chunks, sequential, loopback:`,
  );
  for (const r of [ours, floor]) {
    console.log(
      `  ${r.name.padEnd(32)} ${r.mibPerSecond.toFixed(1).padStart(7)} MiB/s  ${r.seconds.toFixed(1)} s  ` +
        `peak RSS growth ${r.rssGrowthMiB.toFixed(1)} MiB (after ${WARM_UP_CHUNKS}-chunk warm-up: ${r.rssGrowthAfterWarmUpMiB.toFixed(1)} MiB)`,
    );
  }
  console.log(
    `  ratio Tributary / bare: ${(ours.mibPerSecond / floor.mibPerSecond).toFixed(3)} (target ≥ 0.9)`,
  );
  console.log(
    `  Tributary peak RSS growth: ${ours.rssGrowthMiB.toFixed(1)} MiB from idle, ${ours.rssGrowthAfterWarmUpMiB.toFixed(1)} MiB ` +
      `after warm-up (target < 64 MB); bare server: ${floor.rssGrowthMiB.toFixed(1)} MiB from idle`,
  );

  const jpeg = path.join(dataDir, 'cover.jpg');
  // Noise, like a photograph: a flat image would flatter the PNG encoder.
  await sharp({
    create: {
      width: 4000,
      height: 4000,
      channels: 3,
      background: { r: 30, g: 120, b: 200 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 90 })
    .toFile(jpeg);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await normaliseCoverArt(jpeg, path.join(dataDir, `out-${i}.png`));
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    `cover art 4000×4000 JPEG → 3000×3000 PNG: median ${times[2]!.toFixed(0)} ms (min ${times[0]!.toFixed(0)}, max ${times[4]!.toFixed(0)}; 5 runs)`,
  );
} finally {
  await bare.stop();
  await bench.close();
}
