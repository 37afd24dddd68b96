import { rm } from 'node:fs/promises';
import { hashFile } from '../../platform/hash-file.ts';
import { storageKey } from '../../platform/storage/index.ts';
import { Account } from '../accounts/index.ts';
import type { UploadDeps } from './deps.ts';
import { storedFileName } from './file-names.ts';
import { assertKind, normaliseCoverArt, sniffFile, transcodeToFlac } from './media/index.ts';
import { type FileOrigin, type FileStore, type MediaWarning, StoredFile } from './stored-file.entity.ts';
import type { UploadType } from './upload-session.entity.ts';

export interface IngestInput {
  accountId: string;
  type: UploadType;
  fileName: string | null;
  /** The received bytes on scratch disk; the caller removes it afterwards. */
  sourcePath: string;
  origin: FileOrigin;
  originUrl?: string | null;
  /** Where to point errors about the content, in the caller's terms (e.g. `data_base64`). */
  fieldPath: string;
}

export const STORE_OF: Record<UploadType, FileStore> = { coverArt: 'cover-art', audio: 'audio' };

/**
 * Every upload path ends here: the content is sniffed (never trusted from name or mime type),
 * normalised (cover art → 3000×3000 PNG, audio → FLAC), stored, and recorded. Nothing is recorded
 * unless stored, and a stored object whose row cannot be written is removed again.
 */
export async function ingestFile(deps: UploadDeps, input: IngestInput): Promise<StoredFile> {
  const source = await hashFile(input.sourcePath);
  const sniffed = await sniffFile(input.sourcePath);
  assertKind(sniffed, input.type, input.fieldPath);

  const output = await deps.scratch.newPath('normalised');
  try {
    const normalised =
      input.type === 'coverArt'
        ? await normaliseCover(input.sourcePath, output)
        : await normaliseAudio(input.sourcePath, output);
    const stored = await hashFile(output);
    const store = STORE_OF[input.type];
    const name = storedFileName(input.fileName, normalised.extension);
    const key = storageKey(store, input.accountId, name);
    await deps.storage.putFile(key, output, { contentType: normalised.contentType });
    try {
      const file = deps.em.create(StoredFile, {
        account: deps.em.getReference(Account, input.accountId),
        store,
        name,
        storageKey: key,
        size: stored.size,
        contentType: normalised.contentType,
        sha256: stored.sha256,
        sourceSha256: source.sha256,
        sourceSize: source.size,
        sourceContentType: sniffed.mime,
        sourceName: input.fileName,
        origin: input.origin,
        originUrl: input.originUrl ?? null,
        media: normalised.media,
        // A generated image is made at 1024² and enlarged by design: no advice to upload a larger one.
        warnings:
          input.origin === 'generated'
            ? normalised.warnings.filter((warning) => warning.code !== 'cover_art_upscaled')
            : normalised.warnings,
        createdAt: deps.now(),
      });
      await deps.em.flush();
      return file;
    } catch (error) {
      await deps.storage.delete(key).catch(() => undefined);
      throw error;
    }
  } finally {
    await rm(output, { force: true });
  }
}

interface Normalised {
  extension: 'png' | 'flac';
  contentType: string;
  media: Record<string, unknown>;
  warnings: MediaWarning[];
}

async function normaliseCover(sourcePath: string, output: string): Promise<Normalised> {
  const result = await normaliseCoverArt(sourcePath, output);
  return {
    extension: 'png',
    contentType: 'image/png',
    media: {
      width: result.width,
      height: result.height,
      format: result.format,
      sourceWidth: result.sourceWidth,
      sourceHeight: result.sourceHeight,
    },
    warnings: result.warnings,
  };
}

async function normaliseAudio(sourcePath: string, output: string): Promise<Normalised> {
  const result = await transcodeToFlac(sourcePath, output);
  return {
    extension: 'flac',
    contentType: 'audio/flac',
    media: { ...result.facts, source: result.source },
    warnings: result.warnings,
  };
}
