import { generateSecret, sha256Hex } from '../../../platform/crypto.ts';
import { invalidRequest } from '../../../platform/errors.ts';
import { Account } from '../../accounts/index.ts';
import type { UploadDeps } from '../deps.ts';
import { MAX_CHUNK_BYTES, MAX_CHUNKS, MAX_SESSION_FILE_BYTES, RECOMMENDED_CHUNK_BYTES } from '../limits.ts';
import { UploadSession, type UploadType } from '../upload-session.entity.ts';

export const UPLOAD_TOKEN_PREFIX = 'svc_upl_';

export interface CreatedSession {
  session: UploadSession;
  /** The session's scoped token: shown once, stored as a hash, valid for this session only. */
  uploadToken: string;
  recommendedChunkBytes: number;
  maxChunkBytes: number;
}

export async function createUploadSession(
  deps: Pick<UploadDeps, 'em' | 'now' | 'sessionTtlSeconds'>,
  input: {
    accountId: string;
    type: UploadType;
    fileName: string;
    fileSize: number;
    fileType?: string | null;
  },
): Promise<CreatedSession> {
  if (
    !Number.isSafeInteger(input.fileSize) ||
    input.fileSize <= 0 ||
    input.fileSize > MAX_SESSION_FILE_BYTES
  ) {
    throw invalidRequest(`file_size must be between 1 and ${MAX_SESSION_FILE_BYTES} bytes.`, [
      { path: 'file_size', message: 'out of range' },
    ]);
  }
  if (Math.ceil(input.fileSize / MAX_CHUNK_BYTES) > MAX_CHUNKS) {
    throw invalidRequest('file_size needs too many chunks.', [{ path: 'file_size', message: 'too large' }]);
  }
  const uploadToken = generateSecret(UPLOAD_TOKEN_PREFIX);
  const now = deps.now();
  const session = deps.em.create(UploadSession, {
    account: deps.em.getReference(Account, input.accountId),
    type: input.type,
    fileName: input.fileName,
    fileSize: input.fileSize,
    fileType: input.fileType ?? null,
    uploadTokenHash: sha256Hex(uploadToken),
    expiresAt: new Date(now.getTime() + deps.sessionTtlSeconds * 1000),
    createdAt: now,
  });
  await deps.em.flush();
  return {
    session,
    uploadToken,
    recommendedChunkBytes: Math.min(RECOMMENDED_CHUNK_BYTES, input.fileSize),
    maxChunkBytes: MAX_CHUNK_BYTES,
  };
}
