/**
 * Procedural cover art (procedural-v1): time per image and size of the stored PNG, generate and edit side
 * by side. In process: the image work alone (render at 1024², and for an edit the base prepared from the
 * previous 3000² cover, then the upload pipeline's normalisation to a 3000×3000 PNG). Over HTTP: the
 * whole `POST /v1/cover-art` on the real server (an insider account: 15 calls per 2 minutes).
 * Targets: median under 1.5 s per image, PNG under 8 MB.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Account } from '../src/domains/accounts/account.entity.ts';
import { squareBase } from '../src/domains/cover-art/base-image.ts';
import { renderProcedural } from '../src/domains/cover-art/procedural-generator.ts';
import { normaliseCoverArt } from '../src/domains/uploads/media/index.ts';
import { benchApp } from './support/servers.ts';

const IMAGES = Number(process.env.BENCH_COVER_ART_IMAGES ?? 20);
const HTTP_CALLS = 7;
const MB = 1024 * 1024;
const PROMPTS = [
  'a calm ocean at sunset',
  'neon city at midnight, geometric',
  'golden sun over purple hills',
  'dark ambient smoke',
  'a cat playing jazz piano',
  'vintage summer road trip',
  'crystal shards in ice blue',
  'silk ribbons in the wind, pastel',
];
const EDITS = ['make it darker with red', 'add teal ribbons', 'brighter, golden', 'monochrome', 'vivid neon'];
const promptOf = (list: string[], i: number) => `${list[i % list.length]} #${i}`;

interface Row {
  name: string;
  seconds: number[];
  bytes: number[];
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

async function inProcess(): Promise<Row[]> {
  const generate: Row = { name: 'generate (in process)', seconds: [], bytes: [] };
  const edit: Row = { name: 'edit (in process)', seconds: [], bytes: [] };
  for (let i = 0; i < IMAGES; i++) {
    const output = path.join(tmpdir(), `bench-cover-${process.pid}-${i}.png`);
    let started = performance.now();
    const made = await renderProcedural({ prompt: promptOf(PROMPTS, i), base: null });
    await normaliseCoverArt(await writeTemp(made.bytes, `${output}.src`), output);
    generate.seconds.push((performance.now() - started) / 1000);
    const stored = await readFile(output);
    generate.bytes.push(stored.length);

    started = performance.now();
    const base = await squareBase(stored, 'base');
    const edited = await renderProcedural({ prompt: promptOf(EDITS, i), base });
    await normaliseCoverArt(await writeTemp(edited.bytes, `${output}.edit.src`), `${output}.edit`);
    edit.seconds.push((performance.now() - started) / 1000);
    edit.bytes.push((await readFile(`${output}.edit`)).length);
    await Promise.all(
      [output, `${output}.src`, `${output}.edit`, `${output}.edit.src`].map((f) => rm(f, { force: true })),
    );
  }
  return [generate, edit];
}

async function writeTemp(bytes: Buffer, file: string): Promise<string> {
  await writeFile(file, bytes);
  return file;
}

async function overHttp(): Promise<Row[]> {
  const bench = await benchApp('tributary_bench_cover_art');
  try {
    await bench.orm.em.fork().nativeUpdate(Account, { id: bench.account.accountId }, { isInsider: true });
    const call = async (body: Record<string, unknown>) => {
      const started = performance.now();
      const response = await fetch(`${bench.app.url}/v1/cover-art`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bench.account.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const result = (await response.json()) as { fileUrl: string; key: string };
      if (response.status !== 201) throw new Error(`cover art: ${response.status} ${JSON.stringify(result)}`);
      const seconds = (performance.now() - started) / 1000;
      const file = await readFile(path.join(bench.dataDir, 'files', 'cover-art', result.key));
      return { seconds, bytes: file.length, fileUrl: result.fileUrl };
    };
    const generate: Row = { name: 'generate (POST /v1/cover-art)', seconds: [], bytes: [] };
    const edit: Row = { name: 'edit (POST /v1/cover-art)', seconds: [], bytes: [] };
    for (let i = 0; i < HTTP_CALLS; i++) {
      const made = await call({ prompt: promptOf(PROMPTS, i) });
      generate.seconds.push(made.seconds);
      generate.bytes.push(made.bytes);
      const edited = await call({ prompt: promptOf(EDITS, i), base_file_url: made.fileUrl });
      edit.seconds.push(edited.seconds);
      edit.bytes.push(edited.bytes);
    }
    return [generate, edit];
  } finally {
    await bench.close();
  }
}

const rows = [...(await inProcess()), ...(await overHttp())];
console.log(
  `${'what'.padEnd(32)} ${'images'.padStart(6)} ${'median s'.padStart(9)} ${'p95 s'.padStart(7)} ${'PNG median MB'.padStart(14)} ${'PNG max MB'.padStart(11)}`,
);
for (const row of rows) {
  console.log(
    `${row.name.padEnd(32)} ${String(row.seconds.length).padStart(6)} ${quantile(row.seconds, 0.5).toFixed(3).padStart(9)} ${quantile(row.seconds, 0.95).toFixed(3).padStart(7)} ${(quantile(row.bytes, 0.5) / MB).toFixed(2).padStart(14)} ${(Math.max(...row.bytes) / MB).toFixed(2).padStart(11)}`,
  );
}
const worstMedian = Math.max(...rows.map((row) => quantile(row.seconds, 0.5)));
const largest = Math.max(...rows.flatMap((row) => row.bytes));
console.log(
  `targets: median < 1.5 s (worst ${worstMedian.toFixed(3)} s: ${worstMedian < 1.5 ? 'met' : 'MISSED'}), ` +
    `PNG < 8 MB (largest ${(largest / MB).toFixed(2)} MB: ${largest < 8 * MB ? 'met' : 'MISSED'})`,
);
