/** About 3 MB of binary through base64 JSON (the gateway ceiling of the body is about 4.5 MB). */
export const BASE64_MAX_BYTES = 3 * 1024 * 1024;
/** Chunked sessions: chunks above 6 MB are advised for large files; every chunk is at most this. */
export const RECOMMENDED_CHUNK_BYTES = 8 * 1024 * 1024;
export const MAX_CHUNK_BYTES = 32 * 1024 * 1024;
export const MAX_CHUNKS = 100_000;
/** The largest file a chunked session accepts (URL imports have no limit). */
export const MAX_SESSION_FILE_BYTES = 20 * 1024 * 1024 * 1024;
/** Multipart uploads stream to disk; this bounds a single request. */
export const MULTIPART_MAX_BYTES = 2 * 1024 * 1024 * 1024;
/** Downloads: signed URLs live about an hour. */
export const SIGNED_URL_SECONDS = 3600;
export const UPLOAD_HEADER_NAME = 'x-mcp-upload-token';
