export type { UploadDeps } from './deps.ts';
export { signedDownload } from './download-url.ts';
export { findOwnedFile, findOwnedFileRows, findOwnedFiles, type StoredFileRow } from './find-file.ts';
export { importFromUrl } from './import-from-url.ts';
export { ingestFile } from './ingest.ts';
export {
  BASE64_MAX_BYTES,
  MAX_CHUNK_BYTES,
  MULTIPART_MAX_BYTES,
  RECOMMENDED_CHUNK_BYTES,
  UPLOAD_HEADER_NAME,
} from './limits.ts';
export { DEFAULT_MAX_COVER_INPUT_PIXELS, ffmpegPath } from './media/index.ts';
export { authenticateUploadToken } from './sessions/authenticate-upload-token.ts';
export { completeSession } from './sessions/complete-session.ts';
export { type CreatedSession, createUploadSession } from './sessions/create-session.ts';
export { type SessionProgress, sessionProgress } from './sessions/describe-session.ts';
export { findSession } from './sessions/find-session.ts';
export { recordChunk } from './sessions/record-chunk.ts';
export { sweepUploads } from './sessions/sweep-sessions.ts';
export { storeIncoming } from './store-incoming.ts';
export { FILE_ORIGINS, FILE_STORES, type MediaWarning, StoredFile } from './stored-file.entity.ts';
export { CoverThumbnails, type StoredThumbnail } from './thumbnails/cover-thumbnails.ts';
export {
  DEFAULT_THUMBNAIL_SIZE,
  isThumbnailSize,
  THUMBNAIL_SIZES,
} from './thumbnails/thumbnail-sizes.ts';
export { decodeBase64, uploadBase64 } from './upload-base64.ts';
export { SESSION_STATUSES, UPLOAD_TYPES, type UploadType } from './upload-session.entity.ts';
