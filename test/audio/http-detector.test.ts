import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpAiDetector } from '../../src/domains/audio/detection/http-detector.ts';
import type { AudioSource } from '../../src/domains/audio/detection/port.ts';
import { createOutboundClient } from '../../src/platform/http/index.ts';

type Handler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => void;
let handler: Handler = (_req, _body, res) => res.end('{}');
const seen: { authorization?: string | undefined; body: Buffer; type?: string | undefined }[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ authorization: req.headers.authorization, body, type: req.headers['content-type'] });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/analyse`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const bytes = Buffer.from('RIFF....WAVEfmt fake audio bytes');
const audio: AudioSource = {
  name: 'song.wav',
  contentType: 'audio/wav',
  size: bytes.length,
  sha256: 'a'.repeat(64),
  open: async () => Readable.from([bytes]),
};

function detector(timeoutSeconds = 5) {
  return createHttpAiDetector({
    url,
    apiKey: 'vendor-key',
    timeoutSeconds,
    outbound: createOutboundClient({ policy: { allowPrivate: true }, timeoutSeconds }),
  });
}

describe('the HTTP vendor detector', () => {
  it('posts the audio with the API key and reads the verdict', async () => {
    handler = (_req, _body, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ aiScore: 0.93, predictedModel: 'suno-v4', predictedModelScore: 0.8, model: 'vx-2' }),
      );
    };
    const verdict = await detector().analyse(audio);
    expect(verdict).toEqual({
      aiScore: 0.93,
      containsAi: true,
      predictedModel: 'suno-v4',
      predictedModelScore: 0.8,
      message: null,
      model: 'vx-2',
    });
    const last = seen.at(-1)!;
    expect(last.authorization).toBe('Bearer vendor-key');
    expect(last.type).toBe('audio/wav');
    expect(last.body.equals(bytes)).toBe(true);
  });

  it('maps a failing status, a malformed answer and a timeout to upstream_error', async () => {
    handler = (_req, _body, res) => {
      res.statusCode = 503;
      res.end('busy');
    };
    await expect(detector().analyse(audio)).rejects.toMatchObject({
      type: 'upstream_error',
      code: 'upstream_status',
    });
    handler = (_req, _body, res) => res.end(JSON.stringify({ aiScore: 7 }));
    await expect(detector().analyse(audio)).rejects.toMatchObject({
      type: 'upstream_error',
      code: 'upstream_invalid_response',
    });
    handler = (_req, _body, res) => setTimeout(() => res.end('{"aiScore":0.1}'), 2500);
    await expect(detector(1).analyse(audio)).rejects.toMatchObject({
      type: 'upstream_error',
      code: 'upstream_timeout',
    });
  });
});
