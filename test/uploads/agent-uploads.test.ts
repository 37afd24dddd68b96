import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { imageBytes } from '../support/media.ts';

async function callTool(baseUrl: string, token: string, name: string, args: Record<string, unknown>) {
  const response = await request(baseUrl, 'POST', '/api/mcp', {
    token,
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  });
  return response.body as {
    result?: { content: { text: string }[] };
    error?: { code: number; message: string; data: Record<string, unknown> };
  };
}

describe('upload tools on the agent interface', () => {
  const app = useTestApp();

  it('upload_file stores cover art; prepare_local_file_upload opens a session the chunk endpoint accepts', async () => {
    const account = await accountWithToken(app().em());
    const png = await imageBytes(3000, 3000);
    const uploaded = await callTool(app().url, account.token, 'upload_file', {
      type: 'coverArt',
      file_name: 'agent.png',
      data_base64: png.toString('base64'),
    });
    const file = JSON.parse(uploaded.result!.content[0]!.text);
    expect(file.fileUrl).toMatch(
      new RegExp(`^/api/files/cover-art/${account.accountId}/agent-[0-9a-f]{8}\\.png$`),
    );

    const prepared = await callTool(app().url, account.token, 'prepare_local_file_upload', {
      type: 'coverArt',
      file_name: 'big.png',
      file_size: png.length,
    });
    const session = JSON.parse(prepared.result!.content[0]!.text);
    expect(session).toMatchObject({
      upload_header_name: 'x-mcp-upload-token',
      chunk_endpoint: `${app().url}/api/mcp/upload/chunk`,
      complete_endpoint: `${app().url}/api/mcp/upload/complete`,
    });
    expect(session.max_chunk_bytes).toBeGreaterThanOrEqual(session.recommended_chunk_bytes);
    const chunk = await fetch(session.chunk_endpoint, {
      method: 'POST',
      headers: {
        [session.upload_header_name]: session.upload_token,
        'x-session-id': session.session_id,
        'x-chunk-index': '0',
      },
      body: new Uint8Array(png),
    });
    expect(chunk.status).toBe(200);
    const done = await request(app().url, 'POST', '/api/mcp/upload/complete', {
      headers: { [session.upload_header_name]: session.upload_token },
      body: { sessionId: session.session_id, fileName: 'big.png', fileType: 'image/png', type: 'coverArt' },
    });
    expect(done.body.fileUrl).toMatch(/\/big-[0-9a-f]{8}\.png$/);
  });

  it('maps content errors to JSON-RPC codes with the field path', async () => {
    const account = await accountWithToken(app().em());
    const wrong = await callTool(app().url, account.token, 'upload_file', {
      type: 'audio',
      file_name: 'x.wav',
      data_base64: (await imageBytes(8, 8)).toString('base64'),
    });
    expect(wrong.error).toMatchObject({
      code: 422,
      data: { type: 'validation_error', code: 'unsupported_file_type' },
    });
    const badArgs = await callTool(app().url, account.token, 'upload_file', {
      type: 'video',
      file_name: 'x',
      data_base64: 'AA==',
    });
    expect(badArgs.error?.code).toBe(-32602);
  });
});
