import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import type { TestApp } from '../support/app.ts';
import { request } from '../support/http.ts';

export interface CoverArtBody {
  fileUrl: string;
  bucket: string;
  key: string;
  fileName: string;
  prompt: string;
  model: string;
  modelVariant: string;
  imageSize: string;
  aspectRatio: string;
  edited: boolean;
  rateLimit: { remaining: number };
  imageBase64?: string;
}

export const coverArt = (app: TestApp, token: string, body: Record<string, unknown>) =>
  request<CoverArtBody & Record<string, unknown>>(app.url, 'POST', '/v1/cover-art', { token, body });

export async function callTool(app: TestApp, token: string, args: Record<string, unknown>) {
  const response = await request(app.url, 'POST', '/api/mcp', {
    token,
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'generate_cover_art', arguments: args },
    },
  });
  const body = response.body as {
    result?: { content: { text: string }[] };
    error?: { code: number; message: string; data: Record<string, unknown> };
  };
  return {
    result: body.result ? (JSON.parse(body.result.content[0]!.text) as CoverArtBody) : undefined,
    error: body.error,
  };
}

/** The stored bytes of a result, and their decoded pixels. */
export async function storedImage(app: TestApp, result: Pick<CoverArtBody, 'bucket' | 'key'>) {
  const bytes = await buffer(await app.services.storage.get(`${result.bucket}/${result.key}`));
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const metadata = await sharp(bytes).metadata();
  return { bytes, pixels: data, width: info.width, height: info.height, format: metadata.format };
}

/** Mean absolute difference per channel, 0..255. */
export function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}
