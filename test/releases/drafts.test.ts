import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

describe('drafts', () => {
  const app = useTestApp();

  it('creates, patches (delta), replaces, and reports submission rules without failing', async () => {
    const account = await accountWithToken(app().em());
    const first = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body: { release: { title: 'Night Drive', second_genre: 'Synthwave' } },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      releaseCreated: true,
      snapshot: { revision: 1, status: 'collecting' },
      submittable: false,
    });
    expect(first.body.latest.payload).toMatchObject({ title: 'Night Drive', sub_genre: 'Synthwave' });
    const paths = first.body.submissionWarnings.map((w: { path: string }) => w.path);
    expect(paths).toEqual(
      expect.arrayContaining(['release.primary_artist_name', 'release.genre', 'release.cover_art_file_url']),
    );
    const { releaseId } = first.body;

    const delta = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body: {
        release_id: releaseId,
        release: { genre: 'Electronic' },
        tracks: [{ title: 'One' }, { title: 'Two' }],
        status: 'reviewing',
      },
    });
    expect(delta.body).toMatchObject({
      releaseId,
      releaseCreated: false,
      snapshot: { revision: 2, status: 'reviewing' },
    });
    expect(delta.body.latest.payload).toMatchObject({ title: 'Night Drive', genre: 'Electronic' });

    const patched = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body: {
        release_id: releaseId,
        track_patches: [
          { index: 1, explicit_flag: false },
          { index: 2, title: 'Three' },
          { index: 0, remove: true },
        ],
      },
    });
    expect(patched.body.latest.tracks).toEqual([{ title: 'Two', explicit_flag: false }, { title: 'Three' }]);
    expect(patched.body.snapshot.revision).toBe(3);

    const replaced = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body: { release_id: releaseId, mode: 'replace', release: { title: 'Another' } },
    });
    expect(replaced.body.latest).toMatchObject({ payload: { title: 'Another' }, tracks: [] });
    expect(replaced.body.latest.payload.genre).toBeUndefined();
  });

  it('becomes submittable once complete, and the agent endpoint speaks camelCase', async () => {
    const account = await accountWithToken(app().em());
    const assets = await uploadAssets(app().url, account);
    const full = validSubmission(assets, 2);
    const draft = await request(app().url, 'POST', '/api/mcp/draft', {
      token: account.token,
      body: { release: full.release, tracks: full.tracks, conversationId: 'chat-1' },
    });
    expect(draft.status).toBe(200);
    expect(draft.body.submittable).toBe(true);
    expect(draft.body.submissionWarnings.filter((w: { severity: string }) => w.severity === 'error')).toEqual(
      [],
    );
    const again = await request(app().url, 'POST', '/api/mcp/draft', {
      token: account.token,
      body: { conversationId: 'chat-1', trackPatches: [{ index: 0, writers: [{ name: 'Cher' }] }] },
    });
    expect(again.body.releaseId).toBe(draft.body.releaseId);
    expect(again.body.submittable).toBe(false);
    expect(again.body.submissionWarnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'tracks[0].writers[0].name', severity: 'error' }),
      ]),
    );
  });

  it('If-Match: a stale revision is a 409, the current one saves', async () => {
    const account = await accountWithToken(app().em());
    const first = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body: { release: { title: 'A' } },
    });
    const body = { release_id: first.body.releaseId, release: { title: 'B' } };
    const ok = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body,
      headers: { 'if-match': '"1"' },
    });
    expect(ok.status).toBe(200);
    const stale = await request(app().url, 'POST', '/v1/drafts', {
      token: account.token,
      body,
      headers: { 'if-match': '1' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ type: 'conflict_error', code: 'revision_mismatch' });
  });

  it("malformed, unknown and another account's release ids each get their own message", async () => {
    const owner = await accountWithToken(app().em());
    const other = await accountWithToken(app().em());
    const draft = await request(app().url, 'POST', '/v1/drafts', {
      token: owner.token,
      body: { release: { title: 'Mine' } },
    });
    const answers = await Promise.all(
      ['not-a-uuid', '00000000-0000-4000-8000-000000000000', draft.body.releaseId].map((id) =>
        request(app().url, 'GET', `/v1/releases/${id}`, { token: other.token }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([400, 404, 404]);
    expect(answers.map((a) => a.body.code)).toEqual([
      'invalid_release_id',
      'release_not_found',
      'release_not_owned',
    ]);
    expect(new Set(answers.map((a) => a.body.message)).size).toBe(3);
    expect(JSON.stringify(answers[2]!.body)).not.toContain('Mine');
    const write = await request(app().url, 'POST', '/v1/drafts', {
      token: other.token,
      body: { release_id: draft.body.releaseId, release: { title: 'x' } },
    });
    expect(write.body.code).toBe('release_not_owned');
  });
});
