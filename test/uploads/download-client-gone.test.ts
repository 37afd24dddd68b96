/**
 * A download whose client leaves while the stored object is being opened: the open file is closed at
 * once (not left for the garbage collector, which closes a forgotten file handle with a warning).
 */
import { request as httpRequest } from 'node:http';
import type { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { imageBytes } from '../support/media.ts';
import { until } from '../support/wait.ts';

const app = useTestApp();

it('closes the opened file when the client has already gone', async () => {
  const owner = await accountWithToken(app().em());
  const upload = await request(app().url, 'POST', '/v1/files', {
    token: owner.token,
    body: {
      type: 'coverArt',
      file_name: 'gone.png',
      data_base64: (await imageBytes(400, 400)).toString('base64'),
    },
  });
  expect(upload.status).toBe(201);
  const signed = await request(app().url, 'POST', '/graphql', {
    token: owner.token,
    body: {
      query: 'query($u: String!) { fileDownload(fileUrl: $u) { url } }',
      variables: { u: upload.body.fileUrl },
    },
  });
  const url = new URL(signed.body.data.fileDownload.url as string);

  // The real storage, held at the moment it opens the object until the client has left.
  const storage = app().services.storage;
  const realGet = storage.get.bind(storage);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  const opened: Readable[] = [];
  storage.get = async (key, options) => {
    asked = true;
    await held;
    const stream = await realGet(key, options);
    opened.push(stream);
    return stream;
  };
  try {
    const client = httpRequest(`${app().url}${url.pathname}${url.search}`);
    client.on('error', () => {});
    client.end();
    await until(() => asked, 5_000);
    expect(asked).toBe(true);
    client.destroy();
    // The server sees the connection close before the object is open.
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await until(() => opened.length === 1, 5_000);
    const [stream] = opened;
    await until(() => stream!.closed, 2_000);
    expect(stream!.destroyed).toBe(true);
    expect(stream!.closed).toBe(true);
    expect(stream!.readableEnded).toBe(false);
  } finally {
    storage.get = realGet;
  }
});
