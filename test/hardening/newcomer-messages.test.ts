import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

const app = useTestApp();
let account: AccountFixture;

beforeAll(async () => {
  account = await accountWithToken(app().em(), { credits: 5 });
});

async function raw(path: string, headers: Record<string, string>, body: string) {
  const response = await fetch(`${app().url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.token}`, ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('messages a newcomer meets', () => {
  it('a base64 body over the request ceiling says where large files go (REST)', async () => {
    const big = JSON.stringify({
      type: 'audio',
      file_name: 'a.wav',
      data_base64: 'A'.repeat(7 * 1024 * 1024),
    });
    const answer = await raw('/v1/files', { 'content-type': 'application/json' }, big);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('payload_too_large');
    expect(answer.body.message).toContain('POST /v1/uploads');
    expect(answer.body.message).toContain('8388608 bytes');
  });

  it('and on the agent endpoint names the tools to use instead', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'upload_file',
        arguments: { type: 'audio', fileName: 'a.wav', dataBase64: 'A'.repeat(7 * 1024 * 1024) },
      },
    });
    const answer = await raw('/api/mcp', { 'content-type': 'application/json' }, big);
    expect(answer.status).toBe(413);
    expect(answer.body.error.message).toContain('prepare_local_file_upload');
  });

  it('a multipart POST /v1/files explains that it takes JSON and where multipart goes', async () => {
    const form = '--fz\r\nContent-Disposition: form-data; name="type"\r\n\r\naudio\r\n--fz--\r\n';
    const answer = await raw('/v1/files', { 'content-type': 'multipart/form-data; boundary=fz' }, form);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_media_type' });
    expect(answer.body.message).toContain('takes a JSON body');
    expect(answer.body.message).toContain('POST /api/mcp/upload');
  });

  it('a wrong content type on an agent HTTP route answers in the REST envelope', async () => {
    const answer = await raw('/api/mcp/submit', { 'content-type': 'text/plain' }, 'release please');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_media_type' });
    expect(answer.body.jsonrpc).toBeUndefined();
  });

  it('an unknown track field and an off-catalogue genre come back as warnings with a did-you-mean', async () => {
    const assets = await uploadAssets(app().url, account);
    const { release, tracks } = validSubmission(assets, 1);
    const answer = await request(app().url, 'POST', '/v1/releases/quote', {
      token: account.token,
      body: { release: { ...release, genre: 'Hiphop' }, tracks: [{ ...tracks[0], explicit: true }] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.submittable).toBe(true);
    const warnings = answer.body.warnings as { rule: string; path: string; suggestion?: string }[];
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          rule: 'fields.unknown',
          path: 'tracks[0].explicit',
          suggestion: 'explicit_flag',
        }),
        expect.objectContaining({
          rule: 'genre.not-in-catalogue',
          path: 'release.genre',
          suggestion: 'Hip-Hop/Rap',
        }),
      ]),
    );
  });
});
