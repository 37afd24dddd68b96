import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from './errors.ts';

/**
 * Scratch space on local disk for bytes in flight (chunks, incoming uploads, normalisation output).
 * Nothing here is durable: finished files go to the object storage, leftovers are swept.
 */
export interface Scratch {
  root: string;
  /** A fresh path in the scratch area (the directory exists; the file does not). */
  newPath(prefix: string): Promise<string>;
  chunkPath(sessionId: string, index: number): string;
  sessionDir(sessionId: string): string;
  incomingPath(accountId: string, incomingId: string): string;
}

const ID = /^[0-9a-f-]{36}$/;

export function createScratch(dataDir: string): Scratch {
  const root = path.resolve(dataDir, 'scratch');
  const checkedId = (id: string) => {
    if (!ID.test(id)) throw new Error(`not an id: ${id}`);
    return id;
  };
  return {
    root,
    newPath: async (prefix) => {
      const dir = path.join(root, 'work');
      await mkdir(dir, { recursive: true });
      return path.join(dir, `${prefix}-${randomUUID()}`);
    },
    sessionDir: (sessionId) => path.join(root, 'sessions', checkedId(sessionId)),
    chunkPath: (sessionId, index) => path.join(root, 'sessions', checkedId(sessionId), `${index}.chunk`),
    incomingPath: (accountId, incomingId) =>
      path.join(root, 'incoming', checkedId(accountId), checkedId(incomingId)),
  };
}

/**
 * Streams `body` into `target` through a temp file and a rename: the target is either whole or absent.
 * More than `maxBytes` → 413-style error and nothing written.
 */
export async function writeStreamAtomically(
  body: Readable,
  target: string,
  maxBytes: number,
): Promise<number> {
  // The body may fail while the directory is made; the pipeline below still sees that error.
  body.on('error', () => {});
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomUUID()}.part`;
  let size = 0;
  try {
    await pipeline(
      body,
      async function* limit(source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > maxBytes) {
            throw new AppError(
              'invalid_request_error',
              'payload_too_large',
              `The body is larger than ${maxBytes} bytes.`,
            );
          }
          yield chunk;
        }
      },
      createWriteStream(temp),
    );
    await rename(temp, target);
    return size;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
