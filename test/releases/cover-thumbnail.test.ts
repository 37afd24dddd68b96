import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFileUrl, storageKeyForFile, thumbnailKey } from '../../src/platform/storage/index.ts';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { imageBytes } from '../support/media.ts';
import { countStatementsByRequest } from '../support/sql-count.ts';

const app = useTestApp();
const sql = countStatementsByRequest();
afterAll(() => sql.stop());

let owner: AccountFixture;
let stranger: AccountFixture;
let coverUrl: string;
const ids: Record<string, string> = {};

const THUMBNAIL = `query($id: ID!, $size: Int) {
  release(id: $id) { coverArt { fileUrl } coverThumbnail(size: $size) { url expiresAt } }
}`;

async function uploadCover(account: AccountFixture, name: string): Promise<string> {
  const upload = await request(app().url, 'POST', '/v1/files', {
    token: account.token,
    body: {
      type: 'coverArt',
      file_name: name,
      data_base64: (await imageBytes(1200, 800)).toString('base64'),
    },
  });
  expect(upload.status).toBe(201);
  return upload.body.fileUrl;
}

async function draft(account: AccountFixture, release: Record<string, unknown>): Promise<string> {
  const saved = await request(app().url, 'POST', '/v1/drafts', { token: account.token, body: { release } });
  expect(saved.status).toBe(200);
  return saved.body.releaseId;
}

async function thumbnailOf(account: AccountFixture, id: string, size?: number) {
  const answer = await graphql(
    app().url,
    THUMBNAIL,
    { id, ...(size === undefined ? {} : { size }) },
    account.token,
  );
  return answer.body;
}

async function thumbnailUrl(id: string, size?: number): Promise<string> {
  const body = await thumbnailOf(owner, id, size);
  expect(body.errors).toBeUndefined();
  return body.data.release.coverThumbnail.url;
}

/** The cover's storage key, to damage it as a disk or a bucket could. */
const coverKey = (fileUrl: string) => storageKeyForFile(parseFileUrl(fileUrl)!);

beforeAll(async () => {
  owner = await accountWithToken(app().em());
  stranger = await accountWithToken(app().em());
  coverUrl = await uploadCover(owner, 'cover.png');
  ids.covered = await draft(owner, { title: 'With a cover', cover_art_file_url: coverUrl });
  ids.bare = await draft(owner, { title: 'No cover' });
  ids.borrowed = await draft(stranger, { title: "Another's cover", cover_art_file_url: coverUrl });
}, 60_000);

describe('Release.coverThumbnail', () => {
  it('a signed same-origin URL that serves a square WebP of the size asked, without a token', async () => {
    for (const size of [undefined, 64, 320]) {
      const url = await thumbnailUrl(ids.covered!, size);
      expect(url.startsWith(`${app().url}/api/files/thumbnails/${size ?? 160}/${owner.accountId}/`)).toBe(
        true,
      );
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
      const image = await sharp(bytes).metadata();
      expect(image).toMatchObject({ format: 'webp', width: size ?? 160, height: size ?? 160 });
    }
  });

  it('is made once and kept: the same URL within hours, the same bytes, one stored object per size', async () => {
    const url = await thumbnailUrl(ids.covered!);
    expect(await thumbnailUrl(ids.covered!)).toBe(url);
    const expiresAt = new Date(
      (await thumbnailOf(owner, ids.covered!)).data.release.coverThumbnail.expiresAt,
    );
    const hours = (expiresAt.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(6 - 0.01);
    expect(hours).toBeLessThanOrEqual(12);
    const { ownerId, name } = parseFileUrl(coverUrl)!;
    const kept = await app().services.storage.head(thumbnailKey(ownerId, name, 160));
    expect(kept).toMatchObject({ contentType: 'image/webp' });
    const [first, second] = await Promise.all([fetch(url), fetch(url)]);
    expect(Buffer.from(await first.arrayBuffer())).toEqual(Buffer.from(await second.arrayBuffer()));
  });

  it('refuses a tampered URL (404), another size or owner under the same signature, and an expired one (403)', async () => {
    const url = new URL(await thumbnailUrl(ids.covered!));
    const tampered = new URL(url);
    tampered.searchParams.set('sig', `${url.searchParams.get('sig')!.slice(0, -2)}AA`);
    const resized = new URL(url);
    resized.pathname = url.pathname.replace('/thumbnails/160/', '/thumbnails/320/');
    const foreign = new URL(url);
    foreign.pathname = url.pathname.replace(owner.accountId, stranger.accountId);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const unsigned = new URL(url);
    unsigned.search = '';
    for (const bad of [tampered, resized, foreign, later, unsigned]) {
      const response = await fetch(bad);
      expect(response.status, bad.toString()).toBe(404);
      expect(await response.json()).toMatchObject({ type: 'not_found_error', code: 'signed_url_invalid' });
    }
    const { ownerId, name } = parseFileUrl(coverUrl)!;
    const old = app().services.coverThumbnails.urlFor(
      { ownerId, name },
      160,
      new Date(Date.now() - 13 * 3_600_000),
    );
    const expired = await fetch(old.url);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toMatchObject({ type: 'permission_error', code: 'signed_url_expired' });
  });

  it('refuses a size outside the list with invalid_argument naming `size`', async () => {
    for (const size of [100, 0, 4000]) {
      const body = await thumbnailOf(owner, ids.covered!, size);
      expect(body.data.release.coverThumbnail).toBeNull();
      expect(body.errors?.[0]?.extensions).toMatchObject({
        type: 'invalid_request_error',
        code: 'invalid_argument',
        details: [{ path: 'size', message: 'must be one of 64, 160, 320' }],
      });
    }
  });

  it("is null without a cover, and for a cover file of another account's", async () => {
    const bare = await thumbnailOf(owner, ids.bare!);
    expect(bare.errors).toBeUndefined();
    expect(bare.data.release).toEqual({ coverArt: null, coverThumbnail: null });
    const borrowed = await thumbnailOf(stranger, ids.borrowed!);
    expect(borrowed.errors).toBeUndefined();
    expect(borrowed.data.release).toEqual({ coverArt: null, coverThumbnail: null });
  });

  it('a cover whose bytes are broken answers 422, a cover gone 404; never a 500', async () => {
    const brokenUrl = await uploadCover(owner, 'broken.png');
    const goneUrl = await uploadCover(owner, 'gone.png');
    ids.broken = await draft(owner, { title: 'Broken cover', cover_art_file_url: brokenUrl });
    ids.gone = await draft(owner, { title: 'Gone cover', cover_art_file_url: goneUrl });
    await app().services.storage.put(coverKey(brokenUrl), Buffer.from('not an image at all'), {
      contentType: 'image/png',
    });
    await app().services.storage.delete(coverKey(goneUrl));

    const broken = await fetch(await thumbnailUrl(ids.broken));
    expect(broken.status).toBe(422);
    expect(broken.headers.get('cache-control') ?? '').not.toContain('immutable');
    expect(await broken.json()).toMatchObject({ type: 'validation_error', code: 'undecodable_image' });
    const gone = await fetch(await thumbnailUrl(ids.gone));
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ type: 'not_found_error', code: 'file_not_found' });
  });

  it('a page asking for coverArt and coverThumbnail reads the cover files in one statement', async () => {
    const requestId = `thumbnails-${Date.now()}`;
    const answer = await request(app().url, 'POST', '/graphql', {
      token: owner.token,
      headers: { 'x-request-id': requestId },
      body: {
        query: `{ releasesConnection(first: 20) { edges { node { title coverArt { fileUrl }
          coverThumbnail { url } small: coverThumbnail(size: 64) { url } } } } }`,
      },
    });
    expect(answer.body.errors).toBeUndefined();
    const nodes: { coverArt: unknown; coverThumbnail: unknown; small: unknown }[] =
      answer.body.data.releasesConnection.edges.map((e: { node: unknown }) => e.node);
    expect(nodes.some((n) => n.coverArt !== null)).toBe(true);
    for (const node of nodes) {
      expect(node.coverThumbnail !== null).toBe(node.coverArt !== null);
      expect(node.small !== null).toBe(node.coverArt !== null);
    }
    expect(sql.texts(requestId).filter((text) => /\bstored_files\b/.test(text))).toHaveLength(1);
  });
});
