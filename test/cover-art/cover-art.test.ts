import { describe, expect, it } from 'vitest';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { imageBytes } from '../support/media.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { callTool, coverArt, meanDifference, storedImage } from './support.ts';

describe('cover art from a prompt (procedural, the default)', () => {
  const app = useTestApp();

  it('generates a 3000×3000 PNG: the same prompt draws the same pixels, another prompt others', async () => {
    const account = await accountWithToken(app().em());
    const first = await coverArt(app(), account.token, { prompt: 'a calm ocean at sunset' });
    expect(first.status).toBe(201);
    expect(Object.keys(first.body).sort()).toEqual(
      [
        'aspectRatio',
        'bucket',
        'edited',
        'fileName',
        'fileUrl',
        'imageSize',
        'key',
        'model',
        'modelVariant',
        'prompt',
        'rateLimit',
      ].sort(),
    );
    expect(first.body).toMatchObject({
      bucket: 'cover-art',
      prompt: 'a calm ocean at sunset',
      model: 'procedural-v1',
      modelVariant: 'horizon',
      imageSize: '1K',
      aspectRatio: '1:1',
      edited: false,
      rateLimit: { remaining: 4 },
    });
    expect(first.body.fileName).toMatch(/^mcp-cover-\d{13}-[0-9a-f]{8}\.png$/);
    expect(first.body.fileUrl).toBe(`/api/files/cover-art/${account.accountId}/${first.body.fileName}`);
    expect(first.body.key).toBe(`${account.accountId}/${first.body.fileName}`);

    const same = await coverArt(app(), account.token, { prompt: 'a calm ocean at sunset' });
    const other = await coverArt(app(), account.token, { prompt: 'neon city at midnight' });
    const [a, b, c] = await Promise.all([first, same, other].map((r) => storedImage(app(), r.body)));
    expect(a).toMatchObject({ width: 3000, height: 3000, format: 'png' });
    expect(a!.bytes.length).toBeLessThan(8 * 1024 * 1024);
    expect(same.body.fileUrl).not.toBe(first.body.fileUrl);
    expect(a!.pixels.equals(b!.pixels)).toBe(true);
    expect(meanDifference(a!.pixels, c!.pixels)).toBeGreaterThan(20);

    const file = await request(app().url, 'GET', `/v1/me`, { token: account.token });
    expect(file.status).toBe(200);
    const listed = await graphql(
      app().url,
      `query { file(fileUrl: "${first.body.fileUrl}") { origin width height warnings { code } } }`,
      {},
      account.token,
    );
    expect(listed.body.data.file).toEqual({ origin: 'GENERATED', width: 3000, height: 3000, warnings: [] });
  });

  it('edits a previous cover (base_file_url) or an image of the caller (base64): edited, and visibly changed', async () => {
    const account = await accountWithToken(app().em());
    const base = await coverArt(app(), account.token, { prompt: 'golden sun over purple hills' });
    const edited = await coverArt(app(), account.token, {
      prompt: 'make it darker with red',
      base_file_url: base.body.fileUrl,
      return_base64: true,
      file_name: 'darker.png',
    });
    expect(edited.status).toBe(201);
    expect(edited.body).toMatchObject({ edited: true, model: 'procedural-v1', rateLimit: { remaining: 3 } });
    expect(edited.body.fileName).toMatch(/^darker-[0-9a-f]{8}\.png$/);
    const [before, after] = await Promise.all([base, edited].map((r) => storedImage(app(), r.body)));
    expect(after).toMatchObject({ width: 3000, height: 3000 });
    expect(meanDifference(before!.pixels, after!.pixels)).toBeGreaterThan(15);
    expect(Buffer.from(edited.body.imageBase64!, 'base64').equals(after!.bytes)).toBe(true);

    const photo = await imageBytes(640, 480, 'jpeg');
    const fromBytes = await callTool(app(), account.token, {
      prompt: 'add teal ribbons',
      baseImageBase64: `data:image/jpeg;base64,${photo.toString('base64')}`,
      baseImageMimeType: 'image/jpeg',
    });
    expect(fromBytes.result).toMatchObject({ edited: true, rateLimit: { remaining: 2 } });
    expect(fromBytes.result).not.toHaveProperty('imageBase64');
    const stored = await storedImage(app(), fromBytes.result!);
    const plain = await storedImage(app(), (await coverArt(app(), account.token, { prompt: 'x' })).body);
    expect(stored).toMatchObject({ width: 3000, height: 3000 });
    expect(meanDifference(stored.pixels, plain.pixels)).toBeGreaterThan(0);
  });

  it('sets the cover of a draft named by releaseId or conversationId, without charging credits', async () => {
    const account = await accountWithToken(app().em(), { credits: 3 });
    const draft = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body: { release: { title: 'Night Drive' } },
    });
    const releaseId = draft.body.releaseId as string;
    const byRelease = await callTool(app(), account.token, { prompt: 'night drive', releaseId });
    let release = await app().em().findOneOrFail(Release, { id: releaseId });
    expect(release.payload.release.cover_art_file_url).toBe(byRelease.result!.fileUrl);
    expect(release.payload.release.title).toBe('Night Drive');

    const byConversation = await coverArt(app(), account.token, {
      prompt: 'morning drive',
      conversation_id: 'chat-42',
    });
    release = await app().em().findOneOrFail(Release, { conversationId: 'chat-42' });
    expect(release.payload.release.cover_art_file_url).toBe(byConversation.body.fileUrl);
    const credits = await request(app().url, 'GET', '/v1/me/credits', { token: account.token });
    expect(credits.body.balance).toBe(3);

    const other = await accountWithToken(app().em());
    const foreign = await callTool(app(), other.token, { prompt: 'not yours', releaseId });
    expect(foreign.error).toMatchObject({ code: 404, data: { code: 'release_not_owned' } });

    const submitter = await accountWithToken(app().em(), { credits: 5 });
    const submitted = await request(app().url, 'POST', '/v1/releases', {
      token: submitter.token,
      body: validSubmission(await uploadAssets(app().url, submitter), 1),
    });
    expect(submitted.status).toBe(201);
    const late = await callTool(app(), submitter.token, {
      prompt: 'too late',
      releaseId: submitted.body.releaseId,
    });
    expect(late.error).toMatchObject({ code: 409, data: { code: 'release_already_submitted' } });
    const next = await coverArt(app(), submitter.token, { prompt: 'still counted from five' });
    expect(next.body.rateLimit.remaining).toBe(4);
  });

  it('refuses bad input with 400 and foreign or wrong-store base files with 403, before taking the allowance', async () => {
    const account = await accountWithToken(app().em());
    const other = await accountWithToken(app().em());
    const foreign = await coverArt(app(), other.token, { prompt: 'theirs' });

    const tooLong = await coverArt(app(), account.token, { prompt: 'x'.repeat(1501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_prompt',
      details: [{ path: 'prompt' }],
    });
    const toolTooLong = await callTool(app(), account.token, { prompt: 'é'.repeat(1501) });
    expect(toolTooLong.error).toMatchObject({ code: 400, data: { code: 'invalid_prompt' } });
    const missing = await callTool(app(), account.token, {});
    expect(missing.error).toMatchObject({ code: 400, data: { details: [{ path: 'prompt' }] } });
    expect((await coverArt(app(), account.token, { prompt: '   ' })).status).toBe(400);

    const notImage = await coverArt(app(), account.token, {
      prompt: 'edit this',
      base_image_base64: Buffer.from('just some text, not an image').toString('base64'),
    });
    expect(notImage.status).toBe(400);
    expect(notImage.body).toMatchObject({
      code: 'invalid_base_image',
      details: [{ path: 'base_image_base64' }],
    });
    const truncated = (await imageBytes(64, 64)).subarray(0, 60);
    const toolNotImage = await callTool(app(), account.token, {
      prompt: 'edit this',
      baseImageBase64: truncated.toString('base64'),
    });
    expect(toolNotImage.error).toMatchObject({ code: 400, data: { details: [{ path: 'baseImageBase64' }] } });

    const theirs = await coverArt(app(), account.token, {
      prompt: 'edit theirs',
      base_file_url: foreign.body.fileUrl,
    });
    expect(theirs.status).toBe(403);
    expect(theirs.body).toMatchObject({ type: 'permission_error', code: 'base_file_not_owned' });
    const toolTheirs = await callTool(app(), account.token, {
      prompt: 'edit theirs',
      baseFileUrl: foreign.body.fileUrl,
    });
    expect(toolTheirs.error).toMatchObject({ code: 403, data: { code: 'base_file_not_owned' } });
    const audioStore = await callTool(app(), account.token, {
      prompt: 'edit audio',
      baseFileUrl: `/api/files/audio/${account.accountId}/song.flac`,
    });
    expect(audioStore.error).toMatchObject({ code: 403, data: { code: 'base_file_wrong_store' } });

    const ok = await coverArt(app(), account.token, { prompt: 'é'.repeat(1500) });
    expect(ok.status).toBe(201);
    expect(ok.body.rateLimit.remaining).toBe(4);
  });

  it('is a typed GraphQL mutation too', async () => {
    const account = await accountWithToken(app().em());
    const answer = await graphql(
      app().url,
      `mutation ($input: GenerateCoverArtInput!) {
        generateCoverArt(input: $input) {
          fileUrl bucket edited model imageSize aspectRatio rateLimit { remaining } imageBase64
          file { width height contentType origin }
        }
      }`,
      { input: { prompt: 'silk ribbons in the wind' } },
      account.token,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.generateCoverArt).toMatchObject({
      bucket: 'cover-art',
      edited: false,
      model: 'procedural-v1',
      imageSize: '1K',
      aspectRatio: '1:1',
      rateLimit: { remaining: 4 },
      imageBase64: null,
      file: { width: 3000, height: 3000, contentType: 'image/png', origin: 'GENERATED' },
    });
  });
});
