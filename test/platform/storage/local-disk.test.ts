import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentDisposition } from '../../../src/platform/storage/content-disposition.ts';
import {
  createLocalDiskStorage,
  LOCAL_SIGNED_PATH_PREFIX,
  verifyLocalSignature,
} from '../../../src/platform/storage/local-disk.ts';
import type { ObjectStorage } from '../../../src/platform/storage/object-storage.ts';
import { chunked, objectStorageContract } from './contract.ts';

const secret = randomBytes(48).toString('base64url');
let root: string;
let server: Server;
let publicUrl: string;

/**
 * What the web facade does for `GET /api/files/signed/<key>`: check the signature, then stream the
 * object with its content type (or the signed override) and the signed download name.
 */
function serveSignedDownloads(storage: ObjectStorage): Server {
  return createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (!url.pathname.startsWith(LOCAL_SIGNED_PATH_PREFIX)) {
        res.writeHead(404).end();
        return;
      }
      const key = url.pathname.slice(LOCAL_SIGNED_PATH_PREFIX.length);
      const name = url.searchParams.get('name');
      const type = url.searchParams.get('type');
      const verdict = verifyLocalSignature(
        { key, expires: url.searchParams.get('expires'), sig: url.searchParams.get('sig'), name, type },
        secret,
      );
      if (verdict !== 'ok') {
        res.writeHead(403, { 'content-type': 'text/plain' }).end(verdict);
        return;
      }
      const info = await storage.head(key);
      if (!info) {
        res.writeHead(404).end();
        return;
      }
      const body = await storage.get(key);
      res.writeHead(200, {
        'content-type': type || info.contentType,
        'content-length': info.size,
        ...(name ? { 'content-disposition': contentDisposition(name) } : {}),
      });
      await pipeline(body, res);
    } catch {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
}

async function partFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((entry) => entry.endsWith('.part'));
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tributary-local-storage-'));
  server = serveSignedDownloads(
    createLocalDiskStorage({ root, publicUrl: 'http://unused', signingSecret: secret }),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await rm(root, { recursive: true, force: true });
});

objectStorageContract('local disk', async (options = {}) => ({
  storage: createLocalDiskStorage({ root, publicUrl, signingSecret: secret, ...options }),
  leftovers: () => partFiles(root),
}));

describe('local disk storage', () => {
  const storage = () => createLocalDiskStorage({ root, publicUrl, signingSecret: secret });

  it('keeps objects at <root>/<key> with a hidden content-type sidecar', async () => {
    const owner = randomUUID();
    await storage().put(`cover-art/${owner}/art.png`, Buffer.from('png'), { contentType: 'image/png' });
    const dir = path.join(root, 'cover-art', owner);
    expect((await readdir(dir)).sort()).toEqual(['.art.png.meta.json', 'art.png']);
    expect(await readFile(path.join(dir, 'art.png'), 'utf8')).toBe('png');
    expect(JSON.parse(await readFile(path.join(dir, '.art.png.meta.json'), 'utf8'))).toEqual({
      contentType: 'image/png',
      size: 3,
    });
  });

  it('falls back to application/octet-stream when the sidecar is missing', async () => {
    const owner = randomUUID();
    const key = `audio/${owner}/a.wav`;
    await storage().put(key, Buffer.from('wav'), { contentType: 'audio/wav' });
    await rm(path.join(root, 'audio', owner, '.a.wav.meta.json'));
    expect(await storage().head(key)).toEqual({ size: 3, contentType: 'application/octet-stream' });
  });

  it('get reads 64 KiB at a time, or the chunkBytes asked for', async () => {
    const key = `audio/${randomUUID()}/big.wav`;
    const data = randomBytes(3 * 1024 * 1024 + 5);
    await storage().put(key, data, { contentType: 'audio/wav' });
    const chunksOf = async (stream: AsyncIterable<Buffer>) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(Buffer.concat(chunks).equals(data)).toBe(true);
      return chunks.map((chunk) => chunk.length);
    };
    const plain = await chunksOf(await storage().get(key));
    expect(Math.max(...plain)).toBe(64 * 1024);
    const big = await chunksOf(await storage().get(key, { chunkBytes: 1024 * 1024 }));
    expect(big).toEqual([1024 * 1024, 1024 * 1024, 1024 * 1024, 5]);
  });

  it('putFile moves the file when it can', async () => {
    // Same filesystem as the root (both under the temp directory), so a rename.
    const scratch = await mkdtemp(path.join(tmpdir(), 'tributary-local-src-'));
    const source = path.join(scratch, 'in.bin');
    await writeFile(source, 'moved');
    const key = `audio/${randomUUID()}/moved.bin`;
    await storage().putFile(key, source, { contentType: 'application/octet-stream' });
    expect(existsSync(source)).toBe(false);
    expect(await storage().head(key)).toEqual({ size: 5, contentType: 'application/octet-stream' });
    await rm(scratch, { recursive: true, force: true });
  });

  it('a stream failing before any byte leaves no directory litter', async () => {
    const owner = randomUUID();
    await expect(
      storage().put(`audio/${owner}/x.wav`, chunked(Buffer.alloc(10), 0), { contentType: 'audio/wav' }),
    ).rejects.toThrow('client went away');
    expect(await readdir(path.join(root, 'audio', owner))).toEqual([]);
  });

  it('refuses a signing secret shorter than 32 characters', () => {
    expect(() => createLocalDiskStorage({ root, publicUrl, signingSecret: 'short' })).toThrow(/32/);
  });

  it('refuses content types that are not plain header values', async () => {
    await expect(
      storage().put(`audio/${randomUUID()}/x`, Buffer.from('x'), { contentType: 'text/plain\r\nx-evil: 1' }),
    ).rejects.toThrow(/Invalid content type/);
  });

  describe('signed URLs', () => {
    const now = Date.UTC(2030, 0, 1);
    const clocked = () => createLocalDiskStorage({ root, publicUrl, signingSecret: secret, now: () => now });

    async function signed(options: { fileName?: string; contentType?: string } = {}) {
      const url = new URL(
        await clocked().signedDownloadUrl('audio/u1/song.mp3', { expiresInSeconds: 3600, ...options }),
      );
      const q = url.searchParams;
      return {
        url,
        request: {
          key: url.pathname.slice(LOCAL_SIGNED_PATH_PREFIX.length),
          expires: q.get('expires'),
          sig: q.get('sig'),
          name: q.get('name'),
          type: q.get('type'),
        },
      };
    }

    it('have the documented shape', async () => {
      const { url } = await signed();
      expect(url.origin + url.pathname).toBe(`${publicUrl}/api/files/signed/audio/u1/song.mp3`);
      expect([...url.searchParams.keys()]).toEqual(['expires', 'sig']);
      expect(url.searchParams.get('expires')).toBe(String(now / 1000 + 3600));
      expect(url.searchParams.get('sig')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('verify as ok until they expire, then as expired', async () => {
      const { request } = await signed({ fileName: 'Song.mp3' });
      expect(verifyLocalSignature(request, secret, now)).toBe('ok');
      expect(verifyLocalSignature(request, secret, new Date(now + 3599_000))).toBe('ok');
      expect(verifyLocalSignature(request, secret, new Date(now + 3600_000))).toBe('expired');
      expect(verifyLocalSignature(request, secret, now + 86_400_000)).toBe('expired');
    });

    it('any tampering makes them invalid, expired or not', async () => {
      const { request } = await signed({ fileName: 'Song.mp3', contentType: 'audio/mpeg' });
      const sig = request.sig ?? '';
      const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
      const cases = [
        { ...request, sig: flipped },
        { ...request, sig: '' },
        { ...request, sig: undefined },
        { ...request, sig: [sig] },
        { ...request, key: 'audio/u2/song.mp3' },
        { ...request, key: '../audio/u1/song.mp3' },
        { ...request, expires: String(Number(request.expires) + 3600) },
        { ...request, expires: `${request.expires}.0` },
        { ...request, expires: undefined },
        { ...request, name: 'Other.mp3' },
        { ...request, name: undefined },
        { ...request, type: 'text/html' },
        { ...request, type: undefined },
      ];
      for (const tampered of cases) {
        expect(verifyLocalSignature(tampered, secret, now), JSON.stringify(tampered)).toBe('invalid');
        expect(verifyLocalSignature(tampered, secret, now + 86_400_000)).toBe('invalid');
      }
      expect(verifyLocalSignature(request, 'another-secret-another-secret-another', now)).toBe('invalid');
    });

    it('a name cannot be added to a URL signed without one', async () => {
      const { request } = await signed();
      expect(verifyLocalSignature(request, secret, now)).toBe('ok');
      expect(verifyLocalSignature({ ...request, name: 'x.exe' }, secret, now)).toBe('invalid');
    });

    it('the download server refuses a tampered signature with 403', async () => {
      const owner = randomUUID();
      const key = `audio/${owner}/song.mp3`;
      await storage().put(key, Buffer.from('bytes'), { contentType: 'audio/mpeg' });
      const url = new URL(await storage().signedDownloadUrl(key, { expiresInSeconds: 60 }));
      const good = await fetch(url);
      expect(good.status).toBe(200);
      expect(await good.text()).toBe('bytes');

      const sig = url.searchParams.get('sig') ?? '';
      url.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`);
      const bad = await fetch(url);
      expect(bad.status).toBe(403);
      expect(await bad.text()).toBe('invalid');

      const other = new URL(url);
      other.searchParams.set('sig', sig);
      other.pathname = `${LOCAL_SIGNED_PATH_PREFIX}audio/${randomUUID()}/song.mp3`;
      expect((await fetch(other)).status).toBe(403);
    });
  });
});
