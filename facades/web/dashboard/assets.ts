import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';
import { type OutputChunk, rolldown } from 'rolldown';
import { DASHBOARD_TSCONFIG, pageEntry, sourcesFingerprint } from './sources.ts';
import { DASHBOARD_STYLESHEET } from './stylesheet.ts';

export const ASSETS_PATH = '/dashboard/assets';

/** One file under /dashboard/assets, compressed once, when it was built. */
interface Asset {
  contentType: string;
  identity: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

/** A page's script and the files it imports, which the shell preloads. */
export interface PageScript {
  file: string;
  preload: string[];
}

export interface DashboardAssets {
  files: ReadonlyMap<string, Asset>;
  /** The stylesheet's file name (`dashboard.<hash>.css`). */
  stylesheet: string;
  /** Each page entry's script. */
  scripts: ReadonlyMap<string, PageScript>;
}

const gzipped = promisify(gzip);
const brotlied = promisify(brotliCompress);

async function asset(contentType: string, text: string): Promise<Asset> {
  const identity = Buffer.from(text, 'utf8');
  const [gz, br] = await Promise.all([
    gzipped(identity, { level: 9 }),
    brotlied(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
  ]);
  return { contentType, identity, gzip: gz, brotli: br };
}

/**
 * Bundles the pages' entries with rolldown: minified ES modules, one per page, with the code pages share
 * split into chunks of its own; every file named by a hash of its content, so it never changes under its
 * name and browsers keep it for a year. A warning fails the build, as an error does.
 */
async function build(entries: readonly string[]): Promise<DashboardAssets> {
  const warnings: string[] = [];
  const bundle = await rolldown({
    input: Object.fromEntries(entries.map((entry) => [entry, pageEntry(entry)])),
    platform: 'browser',
    tsconfig: DASHBOARD_TSCONFIG,
    onLog: (level, log) => {
      if (level === 'warn') warnings.push(log.message);
    },
  });
  let chunks: OutputChunk[];
  try {
    const { output } = await bundle.generate({
      format: 'esm',
      minify: true,
      entryFileNames: '[name].[hash].js',
      chunkFileNames: '[name].[hash].js',
      hashCharacters: 'base36',
    });
    chunks = output.filter((file): file is OutputChunk => file.type === 'chunk');
  } finally {
    await bundle.close();
  }
  if (warnings.length > 0) throw new Error(`The dashboard's bundle has warnings: ${warnings.join('; ')}`);

  const files = new Map<string, Asset>();
  for (const chunk of chunks)
    files.set(chunk.fileName, await asset('text/javascript; charset=utf-8', chunk.code));
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const importsOf = (file: string, seen = new Set<string>()): string[] => {
    for (const imported of byName.get(file)?.imports ?? []) {
      if (!seen.has(imported)) {
        seen.add(imported);
        importsOf(imported, seen);
      }
    }
    return [...seen];
  };
  const scripts = new Map<string, PageScript>();
  for (const chunk of chunks.filter((c) => c.isEntry))
    scripts.set(chunk.name, { file: chunk.fileName, preload: importsOf(chunk.fileName) });

  const hash = createHash('sha256').update(DASHBOARD_STYLESHEET).digest('hex').slice(0, 12);
  const stylesheet = `dashboard.${hash}.css`;
  files.set(stylesheet, await asset('text/css; charset=utf-8', DASHBOARD_STYLESHEET));
  return { files, stylesheet, scripts };
}

/** Bundles built in this process, by their entries, with the fingerprint of the sources they were built from. */
const built = new Map<string, { fingerprint: string; assets: Promise<DashboardAssets> }>();

/**
 * The dashboard's assets for these page entries: built on the first page asked for, then kept for the
 * process's life; with `rebuildOnChange` (outside production), built again once a source file changed,
 * so a page's script can be edited under `npm run dev`. A failed build is tried again on the next call.
 */
export function dashboardAssets(
  entries: readonly string[],
  rebuildOnChange = false,
): Promise<DashboardAssets> {
  const key = [...entries].sort().join(',');
  const fingerprint = rebuildOnChange ? sourcesFingerprint() : '';
  let current = built.get(key);
  if (!current || current.fingerprint !== fingerprint) {
    const next = { fingerprint, assets: build(entries) };
    built.set(key, next);
    next.assets.catch(() => {
      if (built.get(key) === next) built.delete(key);
    });
    current = next;
  }
  return current.assets;
}

/** The encodings a client takes, best first, from its Accept-Encoding (q=0 refuses one). */
export function chosenEncoding(header: string | undefined): 'br' | 'gzip' | 'identity' {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (name) weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  if (weightOf('br') > 0 && weightOf('br') >= weightOf('gzip')) return 'br';
  if (weightOf('gzip') > 0) return 'gzip';
  return 'identity';
}

/**
 * GET /dashboard/assets/<name>.<hash>.<js|css>: public and immutable for a year (a new build has new
 * names), brotli or gzip as the client's Accept-Encoding prefers, compressed once per process.
 */
export function sendAsset(req: Request, res: Response, assets: DashboardAssets): void {
  const found = assets.files.get(String(req.params.file));
  if (!found) {
    res.status(404).type('text/plain').setHeader('Cache-Control', 'no-store');
    res.send('No such asset: pages name the assets of the running build.');
    return;
  }
  const encoding = chosenEncoding(req.headers['accept-encoding']);
  const body = encoding === 'br' ? found.brotli : encoding === 'gzip' ? found.gzip : found.identity;
  res.status(200);
  res.setHeader('Content-Type', found.contentType);
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}
