import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppConfig } from '../config.ts';

export const SIGNING_SECRET_FILE = 'storage-signing-secret';
const MIN_LENGTH = 32;

function errorCode(error: unknown): string | undefined {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

async function readSecret(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  const secret = text.trim();
  if (secret.length < MIN_LENGTH) {
    throw new Error(`${file} holds a storage signing secret shorter than ${MIN_LENGTH} characters.`);
  }
  return secret;
}

/**
 * The HMAC key of local signed file URLs: `STORAGE_SIGNING_SECRET` when set, else the contents of
 * `<DATA_DIR>/storage-signing-secret`, created on first use (48 random bytes, base64url, mode 0600).
 * Creation is create-if-absent via a hard link, so concurrent starts agree on one secret and nobody
 * ever reads a half-written file.
 */
export async function loadSigningSecret(
  config: Pick<AppConfig, 'STORAGE_SIGNING_SECRET' | 'DATA_DIR'>,
): Promise<string> {
  if (config.STORAGE_SIGNING_SECRET) return config.STORAGE_SIGNING_SECRET;
  const dir = path.resolve(config.DATA_DIR);
  const file = path.join(dir, SIGNING_SECRET_FILE);
  const existing = await readSecret(file);
  if (existing) return existing;

  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${SIGNING_SECRET_FILE}.${randomBytes(6).toString('hex')}.part`);
  try {
    await writeFile(temp, `${randomBytes(48).toString('base64url')}\n`, {
      mode: 0o600,
      flag: 'wx',
      flush: true,
    });
    await link(temp, file).catch((error: unknown) => {
      if (errorCode(error) !== 'EEXIST') throw error;
    });
  } finally {
    await rm(temp, { force: true });
  }
  const secret = await readSecret(file);
  if (!secret) throw new Error(`Could not create ${file}.`);
  return secret;
}
