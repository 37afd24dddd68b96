import { createHash } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFileUrl, thumbnailKey } from '../../src/platform/storage/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { imageBytes } from '../support/media.ts';
import { startS3rver } from '../support/s3.ts';

describe('upload paths on the S3 driver (s3rver on loopback)', () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let app: TestApp;
  beforeAll(async () => {
    s3 = await startS3rver('tributary-files');
    app = await startTestApp({ ...s3.env, OUTBOUND_ALLOW_PRIVATE: 'true' });
  });
  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  it('base64, multipart, chunked and URL uploads round-trip through a presigned URL', async () => {
    const account = await accountWithToken(app.em());
    const png = await imageBytes(2000, 3000);
    const fileUrls: string[] = [];

    const base64 = await request(app.url, 'POST', '/v1/files', {
      token: account.token,
      body: { type: 'coverArt', file_name: 'b.png', data_base64: png.toString('base64') },
    });
    expect(base64.status).toBe(201);
    fileUrls.push(base64.body.fileUrl);

    const form = new FormData();
    form.append('type', 'coverArt');
    form.append('file', new Blob([new Uint8Array(png)]), 'm.png');
    const multipart = await fetch(`${app.url}/api/mcp/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}` },
      body: form,
    });
    expect(multipart.status).toBe(201);
    fileUrls.push(((await multipart.json()) as { fileUrl: string }).fileUrl);

    const session = await request(app.url, 'POST', '/v1/uploads', {
      token: account.token,
      body: { type: 'coverArt', file_name: 'c.png', file_size: png.length },
    });
    const half = Math.ceil(png.length / 2);
    for (const [index, part] of [
      [1, png.subarray(half)],
      [0, png.subarray(0, half)],
    ] as const) {
      const chunk = await fetch(session.body.chunk_endpoint, {
        method: 'POST',
        headers: {
          'x-mcp-upload-token': session.body.upload_token,
          'x-session-id': session.body.session_id,
          'x-chunk-index': String(index),
          'content-type': 'application/octet-stream',
        },
        body: new Uint8Array(part),
      });
      expect(chunk.status).toBe(200);
    }
    const complete = await request(app.url, 'POST', '/api/mcp/upload/complete', {
      token: account.token,
      body: { sessionId: session.body.session_id },
    });
    expect(complete.status).toBe(200);
    expect(complete.body.sourceSha256).toBe(createHash('sha256').update(png).digest('hex'));
    fileUrls.push(complete.body.fileUrl);

    const host = http.createServer((_req, res) => res.end(png));
    host.listen(0, '127.0.0.1');
    await once(host, 'listening');
    const imported = await request(app.url, 'POST', '/v1/files/from-url', {
      token: account.token,
      body: { type: 'coverArt', url: `http://127.0.0.1:${(host.address() as AddressInfo).port}/art.png` },
    });
    host.close();
    expect(imported.status).toBe(201);
    fileUrls.push(imported.body.fileUrl);

    for (const fileUrl of fileUrls) {
      const redirect = await fetch(`${app.url}${fileUrl}`, {
        headers: { authorization: `Bearer ${account.token}` },
        redirect: 'manual',
      });
      expect(redirect.status).toBe(302);
      const location = new URL(redirect.headers.get('location')!);
      expect(location.origin).toBe(app.services.config.S3_ENDPOINT);
      expect(location.searchParams.get('X-Amz-Expires')).toBe('3600');
      const bytes = Buffer.from(await (await fetch(location)).arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 3000, 3000]);
    }
    const other = await accountWithToken(app.em());
    const foreign = await fetch(`${app.url}${fileUrls[0]}`, {
      headers: { authorization: `Bearer ${other.token}` },
      redirect: 'manual',
    });
    expect(foreign.status).toBe(404);
  });

  it('cover thumbnails stay on the service origin: made from the bucket, kept in it', async () => {
    const account = await accountWithToken(app.em());
    const upload = await request(app.url, 'POST', '/v1/files', {
      token: account.token,
      body: {
        type: 'coverArt',
        file_name: 't.png',
        data_base64: (await imageBytes(600, 600)).toString('base64'),
      },
    });
    const saved = await request(app.url, 'POST', '/v1/drafts', {
      token: account.token,
      body: { release: { title: 'On S3', cover_art_file_url: upload.body.fileUrl } },
    });
    const answer = await request(app.url, 'POST', '/graphql', {
      token: account.token,
      body: {
        query: 'query($id: ID!) { release(id: $id) { coverThumbnail(size: 64) { url } } }',
        variables: { id: saved.body.releaseId },
      },
    });
    const url = new URL(answer.body.data.release.coverThumbnail.url);
    expect(url.origin).toBe(app.services.config.PUBLIC_URL);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 64, 64]);
    const { ownerId, name } = parseFileUrl(upload.body.fileUrl)!;
    const kept = await app.services.storage.head(thumbnailKey(ownerId, name, 64));
    expect(kept?.contentType).toBe('image/webp');
  });
});
