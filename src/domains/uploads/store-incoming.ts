import { rm, stat } from 'node:fs/promises';
import { notFound } from '../../platform/errors.ts';
import type { UploadDeps } from './deps.ts';
import { ingestFile } from './ingest.ts';
import type { StoredFile } from './stored-file.entity.ts';
import type { UploadType } from './upload-session.entity.ts';

/**
 * Ingests bytes a facade streamed to the caller's incoming area (multipart uploads). The id is looked
 * up under the caller's own account, so one account can never ingest another's incoming file.
 */
export async function storeIncoming(
  deps: UploadDeps,
  input: { accountId: string; incomingId: string; type: UploadType; fileName: string },
): Promise<StoredFile> {
  const sourcePath = deps.scratch.incomingPath(input.accountId, input.incomingId);
  if (!(await stat(sourcePath).catch(() => null)))
    throw notFound('No such incoming file.', 'incoming_not_found');
  try {
    return await ingestFile(deps, {
      accountId: input.accountId,
      type: input.type,
      fileName: input.fileName,
      sourcePath,
      origin: 'multipart',
      fieldPath: 'file',
    });
  } finally {
    await rm(sourcePath, { force: true });
  }
}
