import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parseFile } from 'music-metadata';
import { invalidRequest } from '../../../platform/errors.ts';
import { fingerprintAudio } from './chromaprint.ts';
import { indexRecording } from './registry.ts';
import type { DspLink } from './registry-recording.entity.ts';

const AUDIO_EXTENSIONS = new Set(['.wav', '.flac', '.mp3', '.m4a', '.aac', '.ogg', '.opus', '.aif', '.aiff']);
const CSV_COLUMNS = ['title', 'artist', 'isrc', 'album', 'label', 'links', 'audio'] as const;

interface CatalogueEntry {
  key: string;
  audioPath: string;
  title: string;
  artist: string | null;
  isrc: string | null;
  albumName: string | null;
  label: string | null;
  dspLinks: DspLink[];
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f.length > 0)) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f.length > 0)) rows.push(row);
  return rows;
}

/** `links`: `Store=https://…` pairs separated by `;` or `|`. */
function parseLinks(value: string): DspLink[] {
  return value
    .split(/[;|]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf('=');
      return at > 0
        ? { name: part.slice(0, at).trim(), url: part.slice(at + 1).trim() }
        : { name: 'link', url: part };
    })
    .filter((link) => /^https?:\/\//.test(link.url));
}

const orNull = (value: string | undefined) => (value?.trim() ? value.trim() : null);

async function entriesFromCsv(file: string): Promise<CatalogueEntry[]> {
  const [header, ...rows] = parseCsv(await readFile(file, 'utf8'));
  const columns = (header ?? []).map((h) => h.trim().toLowerCase());
  for (const required of ['title', 'audio']) {
    if (!columns.includes(required)) {
      throw invalidRequest(`The CSV needs a "${required}" column (columns: ${CSV_COLUMNS.join(', ')}).`);
    }
  }
  const at = (row: string[], name: string) => row[columns.indexOf(name)];
  return rows.map((row, index) => {
    const audio = orNull(at(row, 'audio'));
    const title = orNull(at(row, 'title'));
    if (!audio || !title) throw invalidRequest(`Row ${index + 2} needs a title and an audio path.`);
    return {
      key: `csv:${audio}`,
      audioPath: path.resolve(path.dirname(file), audio),
      title,
      artist: orNull(at(row, 'artist')),
      isrc: orNull(at(row, 'isrc'))?.replace(/-/g, '').toUpperCase() ?? null,
      albumName: orNull(at(row, 'album')),
      label: orNull(at(row, 'label')),
      dspLinks: parseLinks(at(row, 'links') ?? ''),
    };
  });
}

/** A directory of audio files: the metadata is read from each file's tags (title falls back to the name). */
async function entriesFromDirectory(dir: string): Promise<CatalogueEntry[]> {
  const names = (await readdir(dir))
    .filter((n) => AUDIO_EXTENSIONS.has(path.extname(n).toLowerCase()))
    .sort();
  const entries: CatalogueEntry[] = [];
  for (const name of names) {
    const audioPath = path.join(dir, name);
    const { common } = await parseFile(audioPath, { duration: false, skipCovers: true });
    entries.push({
      key: `file:${name}`,
      audioPath,
      title: common.title ?? path.basename(name, path.extname(name)),
      artist: common.artist ?? null,
      isrc: common.isrc?.[0]?.replace(/-/g, '').toUpperCase() ?? null,
      albumName: common.album ?? null,
      label: common.label?.[0] ?? null,
      dspLinks: [],
    });
  }
  return entries;
}

/**
 * `npm run admin -- registry:import DIR_OR_CSV`: fingerprints a reference catalogue into the registry.
 * A CSV has the columns title, artist, isrc, album, label, links, audio (a path relative to the CSV);
 * a directory is read from its audio files' tags. Re-importing an entry replaces it.
 */
export async function importCatalogue(em: EntityManager, source: string) {
  const info = await stat(source).catch(() => null);
  if (!info) throw invalidRequest(`${source} does not exist.`);
  const entries = info.isDirectory() ? await entriesFromDirectory(source) : await entriesFromCsv(source);
  let imported = 0;
  const failed: { entry: string; message: string }[] = [];
  for (const entry of entries) {
    try {
      const { fingerprint, seconds } = await fingerprintAudio(entry.audioPath);
      if (fingerprint.length === 0) throw new Error('too short to fingerprint');
      await indexRecording(em, {
        source: 'catalogue',
        accountId: null,
        releaseId: null,
        trackPosition: null,
        externalKey: entry.key,
        title: entry.title,
        artist: entry.artist,
        isrc: entry.isrc,
        albumName: entry.albumName,
        label: entry.label,
        dspLinks: entry.dspLinks,
        durationSeconds: seconds,
        fingerprint,
      });
      imported++;
    } catch (error) {
      failed.push({ entry: entry.key, message: (error as Error).message.slice(0, 300) });
    }
  }
  return { source, entries: entries.length, imported, failed };
}
