import type { UploadDeps } from './deps.ts';
import { findOwnedFile } from './find-file.ts';
import { SIGNED_URL_SECONDS } from './limits.ts';

/** A short-lived signed URL for one of the caller's files (local: an HMAC-signed route; S3: presigned). */
export async function signedDownload(
  deps: Pick<UploadDeps, 'em' | 'storage' | 'now'>,
  accountId: string,
  fileUrl: string,
) {
  const file = await findOwnedFile(deps.em, accountId, fileUrl);
  const url = await deps.storage.signedDownloadUrl(file.storageKey, {
    expiresInSeconds: SIGNED_URL_SECONDS,
    fileName: file.name,
    contentType: file.contentType,
  });
  return { url, expiresAt: new Date(deps.now().getTime() + SIGNED_URL_SECONDS * 1000), file };
}
