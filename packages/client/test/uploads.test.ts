import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.ts';
import { accountWithToken } from '../../../test/support/factories.ts';
import type { UploadProgress } from '../src/index.ts';
import { clientOf, wavBytes } from './support.ts';

const CHUNK = 64 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * A fetch that cuts the connection of one chunk's request half-way through its body, as a dropped
 * network would: the server reads part of the chunk, then the socket goes.
 */
function cuttingChunk(index: number): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const isChunk = new URL(request.url).pathname === '/api/mcp/upload/chunk';
    if (!isChunk || request.headers.get('x-chunk-index') !== String(index)) return fetch(request);
    const bytes = new Uint8Array(await request.arrayBuffer());
    const cut = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, bytes.length / 2));
        setTimeout(() => cut.abort(new Error('connection cut mid-chunk')), 200);
      },
    });
    return fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body,
      duplex: 'half',
      signal: cut.signal,
    } as RequestInit);
  };
}

describe('@tributary/client: chunked, resumable uploads on the real upload sessions', () => {
  const app = useTestApp();
  const dir = mkdtempSync(path.join(tmpdir(), 'client-uploads-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('uploads a file path in chunks, reporting bytes sent, total and rate', async () => {
    const account = await accountWithToken(app().em());
    const wav = await wavBytes(2);
    const file = path.join(dir, 'Morning Light.wav');
    writeFileSync(file, wav);
    const progress: UploadProgress[] = [];
    const stored = await clientOf(app(), account.token).uploads.upload(file, {
      type: 'audio',
      chunkBytes: CHUNK,
      onProgress: (p) => progress.push(p),
    });
    expect(stored).toMatchObject({ type: 'audio', sourceSize: wav.length, sourceSha256: sha256(wav) });
    expect(stored.fileName).toMatch(/^Morning-Light-[0-9a-f]+\.flac$/);
    const chunks = Math.ceil(wav.length / CHUNK);
    expect(progress.map((p) => p.chunksSent)).toEqual([...Array(chunks + 1).keys()]);
    expect(progress.at(-1)).toMatchObject({
      bytesSent: wav.length,
      totalBytes: wav.length,
      totalChunks: chunks,
    });
    expect(progress.at(-1)!.bytesPerSecond).toBeGreaterThan(0);
  });

  it('takes a Blob and a Uint8Array alike', async () => {
    const account = await accountWithToken(app().em());
    const client = clientOf(app(), account.token);
    const wav = await wavBytes(1);
    const fromBlob = await client.uploads.upload(new Blob([new Uint8Array(wav)]), {
      type: 'audio',
      fileName: 'blob.wav',
      chunkBytes: CHUNK,
    });
    const fromBytes = await client.uploads.upload(new Uint8Array(wav), {
      type: 'audio',
      fileName: 'bytes.wav',
    });
    expect(fromBlob.sourceSha256).toBe(sha256(wav));
    expect(fromBytes.sourceSha256).toBe(sha256(wav));
  });

  it('resumes after a chunk whose connection was cut: asks the server what it holds, sends the rest', async () => {
    const account = await accountWithToken(app().em());
    const wav = new Uint8Array(await wavBytes(2));
    let sessionId = '';
    const broken = clientOf(app(), account.token, { fetch: cuttingChunk(2) });
    const failed = await broken.uploads
      .upload(wav, {
        type: 'audio',
        fileName: 'resumed.wav',
        chunkBytes: CHUNK,
        onSession: (session) => {
          sessionId = session.sessionId;
        },
      })
      .catch((error: unknown) => error);
    expect(String(failed)).toContain('connection cut mid-chunk');
    expect(sessionId).not.toBe('');

    // A new client, as after a restart: the session id is all it knows.
    const client = clientOf(app(), account.token);
    const held = await client.rest.GET('/uploads/{id}', { params: { path: { id: sessionId } } });
    expect(held.data).toMatchObject({ status: 'open', received_bytes: 2 * CHUNK });
    expect(held.data?.received_chunks.map((c) => c.index)).toEqual([0, 1]);

    const progress: UploadProgress[] = [];
    const stored = await client.uploads.resume(sessionId, wav, { onProgress: (p) => progress.push(p) });
    expect(stored).toMatchObject({ sourceSize: wav.length, sourceSha256: sha256(wav) });
    expect(progress[0]).toMatchObject({ bytesSent: 2 * CHUNK, chunksSent: 2 });
    expect(progress.at(-1)).toMatchObject({ bytesSent: wav.length });
    // Resuming a completed session answers its file.
    const again = await client.uploads.resume(sessionId, wav);
    expect(again.fileUrl).toBe(stored.fileUrl);
  });

  it('stops on its signal; the chunks sent stay, and resume finishes the upload', async () => {
    const account = await accountWithToken(app().em());
    const client = clientOf(app(), account.token);
    const wav = new Uint8Array(await wavBytes(1));
    const stop = new AbortController();
    let sessionId = '';
    const stopped = await client.uploads
      .upload(wav, {
        type: 'audio',
        chunkBytes: CHUNK,
        signal: stop.signal,
        onSession: (session) => {
          sessionId = session.sessionId;
        },
        onProgress: (p) => {
          if (p.chunksSent === 1) stop.abort();
        },
      })
      .catch((error: unknown) => error);
    expect(stopped).toMatchObject({ name: 'AbortError' });
    const stored = await client.uploads.resume(sessionId, wav);
    expect(stored.sourceSha256).toBe(sha256(wav));
  });
});
