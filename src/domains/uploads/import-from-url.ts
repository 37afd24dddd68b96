import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { expectOk } from '../../platform/http/index.ts';
import type { UploadDeps } from './deps.ts';
import { nameFromUrl } from './file-names.ts';
import { ingestFile } from './ingest.ts';
import type { StoredFile } from './stored-file.entity.ts';
import type { UploadType } from './upload-session.entity.ts';

/**
 * Streams a public URL to scratch disk (no whole-file buffering, no size limit) through the guarded
 * outbound client, then ingests it like any upload.
 */
export async function importFromUrl(
  deps: UploadDeps,
  input: { accountId: string; type: UploadType; url: string; fileName?: string | null },
): Promise<StoredFile> {
  const response = await deps.outbound.request(input.url, { method: 'GET', fieldPath: 'url' });
  const sourcePath = await deps.scratch.newPath('url');
  try {
    expectOk(response, 'the file URL');
    await pipeline(response.body, createWriteStream(sourcePath));
    return await ingestFile(deps, {
      accountId: input.accountId,
      type: input.type,
      fileName: input.fileName || nameFromUrl(response.url),
      sourcePath,
      origin: 'url',
      originUrl: input.url,
      fieldPath: 'url',
    });
  } finally {
    await response.dispose();
    await rm(sourcePath, { force: true });
  }
}
