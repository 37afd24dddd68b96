import type { operations } from '../generated/rest.ts';
import type { RestClient } from '../rest.ts';
import { type ByteSource, openSource, type UploadSource } from './sources.ts';

/** The stored file a completed upload answers (the same shape as `POST /v1/files`). */
export type UploadedFile = operations['uploadFile']['responses'][201]['content']['application/json'];

export type UploadType = 'audio' | 'coverArt';

export interface UploadProgress {
  sessionId: string;
  /** Bytes the server holds, chunks sent before a resume included. */
  bytesSent: number;
  totalBytes: number;
  /** Bytes per second sent by this call (not counting what the server already held). */
  bytesPerSecond: number;
  chunksSent: number;
  totalChunks: number;
}

interface TransferOptions {
  /** Bytes per chunk (default: the server's recommendation, 8 MiB; at most its maximum, 32 MiB). */
  chunkBytes?: number;
  onProgress?: (progress: UploadProgress) => void;
  /** Stops the upload: the chunks already sent stay on the server, for resume(). */
  signal?: AbortSignal;
  /** The file name to store (default: the source's name). */
  fileName?: string;
  /** The MIME type the caller believes it is (the content is sniffed all the same). */
  fileType?: string;
}

export interface UploadOptions extends TransferOptions {
  type: UploadType;
  /** Told the session as soon as it exists: keep its id to resume after a failure. */
  onSession?: (session: { sessionId: string; expiresAt: string }) => void;
}

/** Chunked, resumable uploads on the server's upload sessions (docs/files.md). */
export interface Uploads {
  /** Opens a session, sends the source in chunks and completes it: the stored file. */
  upload(source: UploadSource, options: UploadOptions): Promise<UploadedFile>;
  /**
   * Resumes a session: asks the server which chunks it holds, sends the others from the same source,
   * and completes it. A session already completed answers its file.
   */
  resume(sessionId: string, source: UploadSource, options?: TransferOptions): Promise<UploadedFile>;
}

const DEFAULT_CHUNK_BYTES = 8 * 1024 * 1024;

interface Session {
  sessionId: string;
  type: UploadType;
  fileName: string;
  chunkBytes: number;
  /** Chunk index → size the server holds. */
  held: Map<number, number>;
}

export function createUploads(options: {
  baseUrl: string;
  rest: RestClient;
  send: (request: Request, options?: { idempotent?: boolean }) => Promise<Response>;
  headers: () => Record<string, string>;
}): Uploads {
  const chunkEndpoint = `${options.baseUrl}/api/mcp/upload/chunk`;
  const completeEndpoint = `${options.baseUrl}/api/mcp/upload/complete`;

  const transfer = async (
    source: ByteSource,
    session: Session,
    transferOptions: TransferOptions,
  ): Promise<UploadedFile> => {
    const { chunkBytes, held } = session;
    const totalChunks = Math.max(1, Math.ceil(source.size / chunkBytes));
    const sizeOf = (index: number) => Math.min(chunkBytes, source.size - index * chunkBytes);
    // A held chunk counts only when it is the size this split gives it; any other is sent again.
    const missing = [...Array(totalChunks).keys()].filter((index) => held.get(index) !== sizeOf(index));
    let bytesSent = source.size - missing.reduce((sum, index) => sum + sizeOf(index), 0);
    let chunksSent = totalChunks - missing.length;
    let sentNow = 0;
    const started = Date.now();
    const report = () =>
      transferOptions.onProgress?.({
        sessionId: session.sessionId,
        bytesSent,
        totalBytes: source.size,
        bytesPerSecond: sentNow / Math.max(0.001, (Date.now() - started) / 1000),
        chunksSent,
        totalChunks,
      });
    report();
    for (const index of missing) {
      transferOptions.signal?.throwIfAborted();
      const start = index * chunkBytes;
      const bytes = await source.read(start, start + sizeOf(index));
      const request = new Request(chunkEndpoint, {
        method: 'POST',
        headers: {
          ...options.headers(),
          'content-type': 'application/octet-stream',
          'x-session-id': session.sessionId,
          'x-chunk-index': String(index),
          'x-upload-type': session.type,
        },
        body: bytes as Uint8Array<ArrayBuffer>,
        ...(transferOptions.signal ? { signal: transferOptions.signal } : {}),
      });
      // The same index again replaces the chunk: sending it twice is safe.
      await (await options.send(request, { idempotent: true })).arrayBuffer();
      bytesSent += bytes.byteLength;
      sentNow += bytes.byteLength;
      chunksSent += 1;
      report();
    }
    const complete = new Request(completeEndpoint, {
      method: 'POST',
      headers: { ...options.headers(), 'content-type': 'application/json' },
      body: JSON.stringify({
        sessionId: session.sessionId,
        fileName: session.fileName,
        type: session.type,
        ...(transferOptions.fileType ? { fileType: transferOptions.fileType } : {}),
      }),
      ...(transferOptions.signal ? { signal: transferOptions.signal } : {}),
    });
    const { success: _success, ...file } = (await (
      await options.send(complete, { idempotent: true })
    ).json()) as {
      success: boolean;
    } & UploadedFile;
    return file as UploadedFile;
  };

  return {
    upload: async (input, uploadOptions) => {
      const source = await openSource(input);
      try {
        const fileName = uploadOptions.fileName ?? source.name ?? 'upload';
        const { data } = await options.rest.POST('/uploads', {
          body: {
            type: uploadOptions.type,
            file_name: fileName,
            file_size: source.size,
            ...(uploadOptions.fileType ? { file_type: uploadOptions.fileType } : {}),
          },
          ...(uploadOptions.signal ? { signal: uploadOptions.signal } : {}),
        });
        const created = data!;
        uploadOptions.onSession?.({ sessionId: created.session_id, expiresAt: created.expires_at });
        const chunkBytes = Math.min(
          uploadOptions.chunkBytes ?? created.recommended_chunk_bytes,
          created.max_chunk_bytes,
        );
        return await transfer(
          source,
          { sessionId: created.session_id, type: uploadOptions.type, fileName, chunkBytes, held: new Map() },
          uploadOptions,
        );
      } finally {
        await source.close();
      }
    },

    resume: async (sessionId, input, transferOptions = {}) => {
      const source = await openSource(input);
      try {
        const { data } = await options.rest.GET('/uploads/{id}', {
          params: { path: { id: sessionId } },
          ...(transferOptions.signal ? { signal: transferOptions.signal } : {}),
        });
        const progress = data!;
        if (progress.status === 'completed' && progress.file) return progress.file as UploadedFile;
        if (progress.file_size !== source.size)
          throw new RangeError(
            `Upload session ${sessionId} is for ${progress.file_size} bytes; this source has ${source.size}.`,
          );
        const held = new Map(progress.received_chunks.map((chunk) => [chunk.index, chunk.size]));
        // The chunks held say the size they were cut at: every one but the last has it (chunks go in
        // order, so the first is held whenever any is).
        const chunkBytes =
          transferOptions.chunkBytes ??
          held.get(0) ??
          (held.size > 0 ? Math.max(...held.values()) : DEFAULT_CHUNK_BYTES);
        return await transfer(
          source,
          {
            sessionId,
            type: progress.type,
            fileName: transferOptions.fileName ?? progress.file_name,
            chunkBytes,
            held,
          },
          transferOptions,
        );
      } finally {
        await source.close();
      }
    },
  };
}
