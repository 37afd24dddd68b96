import { createHash } from 'node:crypto';
import { open, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { imageBytes, makeWav } from '../support/media.ts';

interface Session {
  session_id: string;
  upload_token: string;
  upload_header_name: string;
  chunk_endpoint: string;
  complete_endpoint: string;
  recommended_chunk_bytes: number;
  max_chunk_bytes: number;
}

async function openSession(baseUrl: string, token: string, body: Record<string, unknown>): Promise<Session> {
  const response = await request<Session>(baseUrl, 'POST', '/v1/uploads', { token, body });
  expect(response.status).toBe(201);
  return response.body;
}

function rawChunk(session: Session, index: number, bytes: Uint8Array, headers: Record<string, string> = {}) {
  return fetch(session.chunk_endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/octet-stream',
      [session.upload_header_name]: session.upload_token,
      'x-session-id': session.session_id,
      'x-chunk-index': String(index),
      'x-upload-type': 'audio',
      ...headers,
    },
    body: new Uint8Array(bytes),
  });
}

/** Sends part of a chunk's body and then drops the connection, as a phone losing signal would. */
function brokenChunk(session: Session, index: number, bytes: Uint8Array): Promise<void> {
  const url = new URL(session.chunk_endpoint);
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(bytes.length),
        [session.upload_header_name]: session.upload_token,
        'x-session-id': session.session_id,
        'x-chunk-index': String(index),
      },
    });
    req.on('error', () => resolve());
    req.write(bytes.subarray(0, Math.floor(bytes.length / 3)), () =>
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50),
    );
  });
}

async function readSlice(file: string, start: number, length: number): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, start);
    return new Uint8Array(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(file, 'r');
  for await (const chunk of handle.createReadStream()) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const shuffle = <T>(items: T[]) => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
};

describe('chunked upload sessions', () => {
  const app = useTestApp();

  it('a 200 MB upload with shuffled and repeated chunks and one broken connection completes with the right SHA-256', async () => {
    const account = await accountWithToken(app().em());
    const wav = path.join(tmpdir(), `big-${Date.now()}.wav`);
    await makeWav(wav, 1200, { silence: true });
    try {
      const size = (await stat(wav)).size;
      expect(size).toBeGreaterThan(200 * 1000 * 1000);
      const session = await openSession(app().url, account.token, {
        type: 'audio',
        file_name: 'long.wav',
        file_size: size,
        file_type: 'audio/wav',
      });
      expect(session.recommended_chunk_bytes).toBeGreaterThan(6 * 1024 * 1024);
      const chunkBytes = session.recommended_chunk_bytes;
      const count = Math.ceil(size / chunkBytes);
      const order = shuffle([...Array(count).keys()]);
      order.splice(3, 0, order[0]!, order[1]!); // two repeats

      const broken = order[5]!;
      await brokenChunk(session, broken, await readSlice(wav, broken * chunkBytes, chunkBytes));
      const afterBreak = await request(app().url, 'GET', `/v1/uploads/${session.session_id}`, {
        token: account.token,
      });
      expect(afterBreak.body.received_chunks.map((c: { index: number }) => c.index)).not.toContain(broken);

      for (const index of order) {
        const response = await rawChunk(session, index, await readSlice(wav, index * chunkBytes, chunkBytes));
        expect(response.status, `chunk ${index}`).toBe(200);
      }
      const status = await request(app().url, 'GET', `/v1/uploads/${session.session_id}`, {
        token: account.token,
      });
      expect(status.body.received_chunks).toHaveLength(count);
      expect(status.body.received_bytes).toBe(size);

      const complete = await fetch(session.complete_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [session.upload_header_name]: session.upload_token },
        body: JSON.stringify({
          sessionId: session.session_id,
          fileName: 'long.wav',
          fileType: 'audio/wav',
          type: 'audio',
        }),
      });
      const file = (await complete.json()) as Record<string, unknown>;
      expect(complete.status).toBe(200);
      expect(file.sourceSha256).toBe(await sha256File(wav));
      expect(file.sourceSize).toBe(size);
      expect(file).toMatchObject({
        success: true,
        type: 'audio',
        contentType: 'audio/flac',
        sampleRate: 44100,
      });
      expect(Number(file.durationSeconds)).toBeCloseTo(1200, 0);
    } finally {
      await rm(wav, { force: true });
    }
  }, 180_000);

  it('takes all three chunk bodies, is idempotent, and names what is missing', async () => {
    const account = await accountWithToken(app().em());
    const image = await imageBytes(3000, 3000);
    const third = Math.ceil(image.length / 3);
    const parts = [image.subarray(0, third), image.subarray(third, 2 * third), image.subarray(2 * third)];
    const session = await openSession(app().url, account.token, {
      type: 'coverArt',
      file_name: 'c.png',
      file_size: image.length,
    });

    const form = new FormData();
    form.append('sessionId', session.session_id);
    form.append('chunkIndex', '2');
    form.append('type', 'coverArt');
    form.append('chunk', new Blob([new Uint8Array(parts[2]!)]), 'blob');
    const multipart = await fetch(session.chunk_endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}` },
      body: form,
    });
    expect(multipart.status).toBe(200);

    const incomplete = await request(app().url, 'POST', '/api/mcp/upload/complete', {
      token: account.token,
      body: { sessionId: session.session_id, fileName: 'c.png', type: 'coverArt' },
    });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body).toMatchObject({ code: 'upload_incomplete' });
    expect(incomplete.body.message).toContain('Chunk 0');

    for (let attempt = 0; attempt < 2; attempt++) {
      const json = await request(app().url, 'POST', '/api/mcp/upload/chunk', {
        headers: { [session.upload_header_name]: session.upload_token },
        body: {
          sessionId: session.session_id,
          chunkIndex: 0,
          type: 'coverArt',
          chunkBase64: parts[0]!.toString('base64'),
        },
      });
      expect(json.status).toBe(200);
    }
    const raw = await rawChunk(session, 1, new Uint8Array(parts[1]!));
    expect(raw.status).toBe(200);
    const status = await fetch(`${app().url}/api/mcp/upload/status?sessionId=${session.session_id}`, {
      headers: { [session.upload_header_name]: session.upload_token },
    });
    expect(((await status.json()) as { receivedChunks: unknown[] }).receivedChunks).toHaveLength(3);

    const done = await request(app().url, 'POST', '/api/mcp/upload/complete', {
      headers: { [session.upload_header_name]: session.upload_token },
      body: { sessionId: session.session_id, fileName: 'c.png', fileType: 'image/png', type: 'coverArt' },
    });
    expect(done.status).toBe(200);
    expect(done.body.sourceSha256).toBe(createHash('sha256').update(image).digest('hex'));
    const again = await rawChunk(session, 0, new Uint8Array(parts[0]!));
    expect(again.status).toBe(401);
    // A completed session, read afresh, names its whole file (a client resuming it gets the file).
    const completed = await request(app().url, 'GET', `/v1/uploads/${session.session_id}`, {
      token: account.token,
    });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({
      status: 'completed',
      file: { fileUrl: done.body.fileUrl, sourceSha256: done.body.sourceSha256, width: 3000 },
    });
  });

  it("a session's upload token is valid for that session only; other accounts see nothing", async () => {
    const account = await accountWithToken(app().em());
    const other = await accountWithToken(app().em());
    const first = await openSession(app().url, account.token, {
      type: 'audio',
      file_name: 'a.wav',
      file_size: 10,
    });
    const second = await openSession(app().url, account.token, {
      type: 'audio',
      file_name: 'b.wav',
      file_size: 10,
    });
    const crossed = await rawChunk({ ...first, upload_token: second.upload_token }, 0, new Uint8Array(5));
    expect(crossed.status).toBe(403);
    const foreign = await rawChunk(first, 0, new Uint8Array(5), {
      [first.upload_header_name]: '',
      authorization: `Bearer ${other.token}`,
    });
    expect(foreign.status).toBe(404);
    const lookup = await request(app().url, 'GET', `/v1/uploads/${first.session_id}`, { token: other.token });
    expect(lookup.status).toBe(404);
    const malformed = await request(app().url, 'GET', '/v1/uploads/not-a-uuid', { token: account.token });
    expect(malformed.status).toBe(400);
    const tooBigChunk = await rawChunk(first, 0, new Uint8Array(first.max_chunk_bytes + 1));
    expect(tooBigChunk.status).toBe(400);
    const mismatch = await rawChunk(first, 0, new Uint8Array(12));
    expect(mismatch.status).toBe(200);
    const complete = await request(app().url, 'POST', '/api/mcp/upload/complete', {
      token: account.token,
      body: { sessionId: first.session_id, type: 'audio' },
    });
    expect(complete.body).toMatchObject({ code: 'upload_size_mismatch' });
  });

  it('validates the session request', async () => {
    const account = await accountWithToken(app().em());
    for (const [body, field] of [
      [{ type: 'video', file_name: 'x', file_size: 10 }, 'type'],
      [{ type: 'audio', file_name: 'x', file_size: 0 }, 'file_size'],
      [{ type: 'audio', file_name: 'x' }, 'file_size'],
    ] as const) {
      const response = await request(app().url, 'POST', '/v1/uploads', { token: account.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(response.body.details ?? response.body.message)).toContain(field);
    }
  });
});
