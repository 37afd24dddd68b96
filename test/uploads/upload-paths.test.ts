import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { imageBytes, makeWav } from '../support/media.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function download(baseUrl: string, fileUrl: string, token: string) {
  const redirect = await fetch(`${baseUrl}${fileUrl}`, {
    headers: { authorization: `Bearer ${token}` },
    redirect: 'manual',
  });
  expect(redirect.status).toBe(302);
  const location = redirect.headers.get('location')!;
  const response = await fetch(location);
  expect(response.status).toBe(200);
  return {
    location,
    bytes: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type'),
  };
}

describe('upload paths (local storage)', () => {
  const app = useTestApp();

  it('base64 cover art → fileUrl → 302 → a 3000×3000 PNG', async () => {
    const account = await accountWithToken(app().em());
    const png = await imageBytes(1200, 800, 'jpeg');
    const response = await request(app().url, 'POST', '/v1/files', {
      token: account.token,
      body: {
        type: 'coverArt',
        file_name: 'My Cover.jpg',
        data_base64: png.toString('base64'),
        mime_type: 'application/pdf',
      },
    });
    expect(response.status).toBe(201);
    expect(response.body.fileUrl).toMatch(
      new RegExp(`^/api/files/cover-art/${account.accountId}/My-Cover-[0-9a-f]{8}\\.png$`),
    );
    expect(response.body).toMatchObject({
      type: 'coverArt',
      width: 3000,
      height: 3000,
      contentType: 'image/png',
      sourceSha256: sha256(png),
    });
    expect(response.body.warnings.map((w: { code: string }) => w.code)).toEqual(
      expect.arrayContaining(['cover_art_upscaled', 'cover_art_cropped']),
    );
    const { bytes, contentType } = await download(app().url, response.body.fileUrl, account.token);
    expect(contentType).toBe('image/png');
    expect(sha256(bytes)).toBe(response.body.sha256);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 3000, 3000]);
  });

  it('base64 audio becomes FLAC; the wrong kind of content is 422 and stores nothing', async () => {
    const account = await accountWithToken(app().em());
    const wavPath = path.join(tmpdir(), `t-${Date.now()}.wav`);
    await makeWav(wavPath, 1);
    const wav = await readFile(wavPath);
    await rm(wavPath, { force: true });
    const audio = await request(app().url, 'POST', '/v1/files', {
      token: account.token,
      body: { type: 'audio', file_name: 'take.wav', data_base64: wav.toString('base64') },
    });
    expect(audio.status).toBe(201);
    expect(audio.body).toMatchObject({
      type: 'audio',
      contentType: 'audio/flac',
      sampleRate: 44100,
      channels: 2,
      bitDepth: 16,
    });
    expect(audio.body.fileUrl).toMatch(/\.flac$/);
    const { bytes } = await download(app().url, audio.body.fileUrl, account.token);
    expect(bytes.subarray(0, 4).toString()).toBe('fLaC');

    const wrong = await request(app().url, 'POST', '/v1/files', {
      token: account.token,
      body: {
        type: 'audio',
        file_name: 'cover.wav',
        data_base64: (await imageBytes(10, 10)).toString('base64'),
      },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({
      type: 'validation_error',
      code: 'unsupported_file_type',
      details: [{ path: 'data_base64' }],
    });
    const files = await request(app().url, 'POST', '/graphql', {
      token: account.token,
      body: { query: '{ files { fileUrl } }' },
    });
    expect(files.body.data.files).toHaveLength(1);
  });

  it('refuses base64 beyond about 3 MB with a clear error, and malformed base64', async () => {
    const account = await accountWithToken(app().em());
    const big = Buffer.alloc(3 * 1024 * 1024 + 10, 1).toString('base64');
    const tooBig = await request(app().url, 'POST', '/v1/files', {
      token: account.token,
      body: { type: 'coverArt', file_name: 'big.png', data_base64: big },
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body).toMatchObject({ code: 'payload_too_large', details: [{ path: 'data_base64' }] });
    expect(tooBig.body.message).toContain('/v1/uploads');
    const garbage = await request(app().url, 'POST', '/v1/files', {
      token: account.token,
      body: { type: 'coverArt', file_name: 'x.png', data_base64: '!!not base64!!' },
    });
    expect(garbage.body).toMatchObject({ type: 'invalid_request_error', code: 'invalid_base64' });
  });

  it('multipart POST /api/mcp/upload answers success, fileUrl, fileName, userId', async () => {
    const account = await accountWithToken(app().em());
    const form = new FormData();
    form.append('type', 'coverArt');
    form.append(
      'file',
      new Blob([new Uint8Array(await imageBytes(3000, 3000))], { type: 'image/png' }),
      'square.png',
    );
    const response = await fetch(`${app().url}/api/mcp/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}` },
      body: form,
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status).toBe(201);
    expect(body).toMatchObject({ success: true, userId: account.accountId, width: 3000, warnings: [] });
    expect(String(body.fileName)).toMatch(/^square-[0-9a-f]{8}\.png$/);
    expect(body.fileUrl).toBe(`/api/files/cover-art/${account.accountId}/${body.fileName}`);
    const anonymous = await fetch(`${app().url}/api/mcp/upload`, { method: 'POST', body: form });
    expect(anonymous.status).toBe(401);
  });

  it("another account's file is unreachable on every surface", async () => {
    const owner = await accountWithToken(app().em());
    const other = await accountWithToken(app().em());
    const upload = await request(app().url, 'POST', '/v1/files', {
      token: owner.token,
      body: {
        type: 'coverArt',
        file_name: 'mine.png',
        data_base64: (await imageBytes(3000, 3000)).toString('base64'),
      },
    });
    const { fileUrl } = upload.body;
    const http = await fetch(`${app().url}${fileUrl}`, {
      headers: { authorization: `Bearer ${other.token}` },
      redirect: 'manual',
    });
    expect(http.status).toBe(404);
    expect(((await http.json()) as { type: string }).type).toBe('not_found_error');
    const gql = await request(app().url, 'POST', '/graphql', {
      token: other.token,
      body: {
        query: 'query($u: String!) { file(fileUrl: $u) { fileUrl } fileDownload(fileUrl: $u) { url } }',
        variables: { u: fileUrl },
      },
    });
    expect(gql.body.data).toBeNull();
    expect(
      gql.body.errors.every((e: { extensions: { type: string } }) => e.extensions.type === 'not_found_error'),
    ).toBe(true);
    const rpc = await request(app().url, 'POST', '/api/mcp', {
      token: other.token,
      body: { jsonrpc: '2.0', id: 1, method: 'resources/list' },
    });
    expect(JSON.stringify(rpc.body)).not.toContain(fileUrl);
    const anonymous = await fetch(`${app().url}${fileUrl}`, { redirect: 'manual' });
    expect(anonymous.status).toBe(401);
  });

  it('signed URLs: the bytes without a token; a tampered or expired signature gets none', async () => {
    const account = await accountWithToken(app().em());
    const upload = await request(app().url, 'POST', '/v1/files', {
      token: account.token,
      body: {
        type: 'coverArt',
        file_name: 'sig.png',
        data_base64: (await imageBytes(3000, 3000)).toString('base64'),
      },
    });
    const { location } = await download(app().url, upload.body.fileUrl, account.token);
    const url = new URL(location);
    const expires = Number(url.searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(55 * 60_000);
    expect(expires * 1000 - Date.now()).toBeLessThan(65 * 60_000);
    const tampered = new URL(location);
    tampered.searchParams.set('sig', `${url.searchParams.get('sig')!.slice(0, -2)}AA`);
    const bad = await fetch(tampered);
    expect(bad.status).toBe(404);
    expect((await bad.text()).length).toBeLessThan(200);
    const other = new URL(location);
    other.pathname = other.pathname.replace('sig-', 'xig-');
    expect((await fetch(other)).status).toBe(404);
    const expired = new URL(location);
    expired.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 10));
    expect([403, 404]).toContain((await fetch(expired)).status);
  });
});
