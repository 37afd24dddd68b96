import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeminiGenerator } from '../../src/domains/cover-art/gemini-generator.ts';
import { freePort } from '../../src/platform/free-port.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { callTool, coverArt, meanDifference, storedImage } from './support.ts';

const MODEL = 'gemini-test-image';
const API_KEY = 'test-gemini-key';

interface Received {
  method: string;
  path: string;
  apiKey: string | undefined;
  body: {
    contents: { role: string; parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] }[];
    generationConfig: {
      responseModalities: string[];
      imageConfig: { aspectRatio: string; imageSize: string };
    };
  };
}

/** A loopback stand-in for the Gemini API: `POST /v1/models/<model>:generateContent`. */
async function startGemini() {
  const received: Received[] = [];
  let mode: 'image' | 'fail' | 'slow' | 'refused' = 'image';
  const image = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#1e6091' } })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024"><circle cx="512" cy="512" r="300" fill="#f4a261"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    received.push({
      method: req.method ?? '',
      path: req.url ?? '',
      apiKey: req.headers['x-goog-api-key'] as string | undefined,
      body,
    });
    const json = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.url !== `/v1/models/${MODEL}:generateContent` || req.headers['x-goog-api-key'] !== API_KEY) {
      json(404, { error: { code: 404, message: 'not found', status: 'NOT_FOUND' } });
      return;
    }
    if (mode === 'fail') {
      json(500, { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } });
      return;
    }
    if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 2500));
    if (mode === 'refused') {
      json(200, { promptFeedback: { blockReason: 'SAFETY' }, modelVersion: 'gemini-test-image-001' });
      return;
    }
    json(200, {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ inlineData: { mimeType: 'image/png', data: image.toString('base64') } }],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      modelVersion: 'gemini-test-image-001',
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 1290, totalTokenCount: 1300 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    image,
    received,
    setMode: (next: typeof mode) => {
      mode = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('cover art through a Gemini image model (loopback server)', () => {
  let gemini: Awaited<ReturnType<typeof startGemini>>;
  let app: TestApp;
  beforeAll(async () => {
    gemini = await startGemini();
    app = await startTestApp({
      COVER_ART_PROVIDER: 'gemini',
      GEMINI_API_KEY: API_KEY,
      GEMINI_IMAGE_MODEL: MODEL,
      GEMINI_BASE_URL: gemini.url,
      GEMINI_TIMEOUT_SECONDS: '1',
    });
  });
  afterAll(async () => {
    await app?.close();
    await gemini?.close();
  });

  it('sends the prompt with 1:1 at 1K; the returned image is normalised to 3000×3000 and stored', async () => {
    const account = await accountWithToken(app.em());
    const made = await coverArt(app, account.token, { prompt: 'an orange sun over a blue sea' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      model: MODEL,
      modelVariant: 'gemini-test-image-001',
      imageSize: '1K',
      aspectRatio: '1:1',
      edited: false,
    });
    const request = gemini.received.at(-1)!;
    expect(request).toMatchObject({
      method: 'POST',
      path: `/v1/models/${MODEL}:generateContent`,
      apiKey: API_KEY,
    });
    expect(request.body.generationConfig).toMatchObject({
      responseModalities: ['IMAGE'],
      imageConfig: { aspectRatio: '1:1', imageSize: '1K' },
    });
    expect(request.body.contents).toEqual([
      { role: 'user', parts: [{ text: 'an orange sun over a blue sea' }] },
    ]);
    const stored = await storedImage(app, made.body);
    expect(stored).toMatchObject({ width: 3000, height: 3000, format: 'png' });
    const expected = await sharp(gemini.image).resize(3000, 3000).removeAlpha().raw().toBuffer();
    expect(meanDifference(stored.pixels, expected)).toBeLessThan(2);
  });

  it('an edit sends the base image as inline data after the prompt', async () => {
    const account = await accountWithToken(app.em());
    const base = await coverArt(app, account.token, { prompt: 'first version' });
    const edit = await callTool(app, account.token, { prompt: 'add stars', baseFileUrl: base.body.fileUrl });
    expect(edit.result).toMatchObject({ edited: true, model: MODEL });
    const parts = gemini.received.at(-1)!.body.contents[0]!.parts;
    expect(parts[0]).toEqual({ text: 'add stars' });
    expect(parts[1]!.inlineData!.mimeType).toBe('image/png');
    const sent = await sharp(Buffer.from(parts[1]!.inlineData!.data, 'base64')).metadata();
    expect([sent.format, sent.width, sent.height]).toEqual(['png', 1024, 1024]);
  });

  it('an upstream 500, a timeout or a refusal answers 502 upstream_error: retry with the same prompt', async () => {
    const account = await accountWithToken(app.em());
    gemini.setMode('fail');
    try {
      const failed = await coverArt(app, account.token, { prompt: 'anything' });
      expect(failed.status).toBe(502);
      expect(failed.body).toMatchObject({ type: 'upstream_error', code: 'image_service_failed' });
      expect(failed.body.message).toMatch(/retry with the same prompt/);
      const tool = await callTool(app, account.token, { prompt: 'anything' });
      expect(tool.error).toMatchObject({ code: 502, data: { type: 'upstream_error' } });

      gemini.setMode('slow');
      const slow = await coverArt(app, account.token, { prompt: 'anything' });
      expect(slow.status).toBe(502);
      expect(slow.body).toMatchObject({ code: 'image_service_timeout' });

      gemini.setMode('refused');
      const refused = await coverArt(app, account.token, { prompt: 'anything' });
      expect(refused.status).toBe(502);
      expect(refused.body).toMatchObject({ code: 'image_not_returned' });
      expect(refused.body.message).toMatch(/SAFETY/);
    } finally {
      gemini.setMode('image');
    }
  });
});

describe('the Gemini adapter without a server', () => {
  it('answers 502 image_service_unreachable when nothing listens', async () => {
    const generator = createGeminiGenerator({
      apiKey: API_KEY,
      model: MODEL,
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      timeoutSeconds: 5,
    });
    await expect(generator.generate({ prompt: 'anything', base: null })).rejects.toMatchObject({
      type: 'upstream_error',
      code: 'image_service_unreachable',
    });
  });
});

describe('cover art turned off (COVER_ART_PROVIDER=none)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ COVER_ART_PROVIDER: 'none' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 503 on REST and the agent tool, and takes nothing from the allowance', async () => {
    const account = await accountWithToken(app.em());
    const rest = await coverArt(app, account.token, { prompt: 'anything' });
    expect(rest.status).toBe(503);
    expect(rest.body).toMatchObject({ type: 'unavailable_error', code: 'cover_art_disabled' });
    const tool = await callTool(app, account.token, { prompt: 'anything' });
    expect(tool.error).toMatchObject({ code: 503, data: { code: 'cover_art_disabled' } });
  });
});
