import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepUploads } from '../../src/domains/uploads/sessions/sweep-sessions.ts';
import { UploadSession } from '../../src/domains/uploads/upload-session.entity.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

describe('abandoned uploads are cleaned up', () => {
  const app = useTestApp({ UPLOAD_SESSION_TTL_SECONDS: '60' });

  it('expires sessions past their deadline, removes their chunks, refuses their tokens; keeps live ones', async () => {
    const account = await accountWithToken(app().em());
    const open = async () =>
      (
        await request(app().url, 'POST', '/v1/uploads', {
          token: account.token,
          body: { type: 'audio', file_name: 'a.wav', file_size: 100 },
        })
      ).body;
    const stale = await open();
    const live = await open();
    for (const session of [stale, live]) {
      const chunk = await fetch(session.chunk_endpoint, {
        method: 'POST',
        headers: {
          'x-mcp-upload-token': session.upload_token,
          'x-session-id': session.session_id,
          'x-chunk-index': '0',
        },
        body: new Uint8Array(10),
      });
      expect(chunk.status).toBe(200);
    }
    const { scratch } = app().services;
    expect(existsSync(scratch.chunkPath(stale.session_id, 0))).toBe(true);

    const abandoned = path.join(scratch.root, 'work', 'left-by-a-crash');
    await mkdir(path.dirname(abandoned), { recursive: true });
    await writeFile(abandoned, 'x');
    const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000);
    await utimes(abandoned, twoDaysAgo, twoDaysAgo);

    const em = app().em();
    await em.nativeUpdate(
      UploadSession,
      { id: stale.session_id },
      { expiresAt: new Date(Date.now() - 1000) },
    );
    const result = await sweepUploads(em, scratch);
    expect(result.expired).toBe(1);
    expect(existsSync(scratch.chunkPath(stale.session_id, 0))).toBe(false);
    expect(existsSync(scratch.chunkPath(live.session_id, 0))).toBe(true);
    expect(existsSync(abandoned)).toBe(false);
    expect((await app().em().findOneOrFail(UploadSession, { id: stale.session_id })).status).toBe('expired');

    const late = await fetch(stale.chunk_endpoint, {
      method: 'POST',
      headers: {
        'x-mcp-upload-token': stale.upload_token,
        'x-session-id': stale.session_id,
        'x-chunk-index': '1',
      },
      body: new Uint8Array(10),
    });
    expect(late.status).toBe(401);
    const viaOwner = await request(app().url, 'POST', '/api/mcp/upload/complete', {
      token: account.token,
      body: { sessionId: stale.session_id },
    });
    expect(viaOwner.body).toMatchObject({ type: 'conflict_error', code: 'upload_session_expired' });
  });
});
