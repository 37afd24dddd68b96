import { rm, writeFile } from 'node:fs/promises';
import { AppError, invalidRequest } from '../../platform/errors.ts';
import type { UploadDeps } from './deps.ts';
import { ingestFile } from './ingest.ts';
import { BASE64_MAX_BYTES } from './limits.ts';
import type { StoredFile } from './stored-file.entity.ts';
import type { UploadType } from './upload-session.entity.ts';

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Accepts raw base64 (standard or URL-safe alphabet, whitespace ignored) or a `data:…;base64,` URL. */
export function decodeBase64(data: string, fieldPath: string): Buffer {
  const payload = data.startsWith('data:') ? data.slice(data.indexOf(',') + 1) : data;
  const compact = payload.replace(/\s+/g, '');
  if (compact.length === 0 || !BASE64.test(compact)) {
    throw invalidRequest(
      `${fieldPath} is not valid base64.`,
      [{ path: fieldPath, message: 'not base64' }],
      'invalid_base64',
    );
  }
  if (Math.floor((compact.length * 3) / 4) > BASE64_MAX_BYTES + 2) throw tooLarge(fieldPath);
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > BASE64_MAX_BYTES) throw tooLarge(fieldPath);
  return bytes;
}

function tooLarge(fieldPath: string): AppError {
  return new AppError(
    'invalid_request_error',
    'payload_too_large',
    `Base64 uploads carry at most ${BASE64_MAX_BYTES} bytes; use an upload session (POST /v1/uploads) or a URL import for larger files.`,
    { details: [{ path: fieldPath, message: `more than ${BASE64_MAX_BYTES} bytes` }] },
  );
}

export async function uploadBase64(
  deps: UploadDeps,
  input: { accountId: string; type: UploadType; fileName: string; dataBase64: string },
): Promise<StoredFile> {
  const bytes = decodeBase64(input.dataBase64, 'data_base64');
  const sourcePath = await deps.scratch.newPath('base64');
  try {
    await writeFile(sourcePath, bytes);
    return await ingestFile(deps, {
      accountId: input.accountId,
      type: input.type,
      fileName: input.fileName,
      sourcePath,
      origin: 'base64',
      fieldPath: 'data_base64',
    });
  } finally {
    await rm(sourcePath, { force: true });
  }
}
