import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Symmetric encryption for secrets the service must use again later (webhook signing secrets: an
 * HMAC needs the raw secret, so a hash cannot be stored). AES-256-GCM with a random 96-bit IV; the
 * sealed form is `v1.<iv>.<tag>.<ciphertext>`, each part base64url, so the key or algorithm can
 * change later under a new version prefix.
 */
const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const SECRET_KEY_FILE = 'webhook-secret-key';

function assertKey(key: Uint8Array): void {
  if (key.length !== KEY_BYTES) throw new Error(`A secret-box key must be ${KEY_BYTES} bytes.`);
}

export function seal(plaintext: string, key: Uint8Array): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, tag, ciphertext]
    .map((part) => (typeof part === 'string' ? part : b64(part)))
    .join('.');
}

/** Decrypts a sealed value; throws when it was tampered with, sealed with another key or malformed. */
export function open(sealed: string, key: Uint8Array): string {
  assertKey(key);
  const [version, iv, tag, ciphertext, ...rest] = sealed.split('.');
  if (
    version !== VERSION ||
    iv === undefined ||
    tag === undefined ||
    ciphertext === undefined ||
    rest.length
  ) {
    throw new Error('Not a sealed value of a known version.');
  }
  const ivBytes = Buffer.from(iv, 'base64url');
  const tagBytes = Buffer.from(tag, 'base64url');
  if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES)
    throw new Error('Malformed sealed value.');
  const decipher = createDecipheriv('aes-256-gcm', key, ivBytes);
  decipher.setAuthTag(tagBytes);
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

function decodeKey(value: string, source: string): Buffer {
  const text = value.trim();
  const key = Buffer.from(text, /[-_]/.test(text) ? 'base64url' : 'base64');
  if (key.length !== KEY_BYTES) {
    throw new Error(`${source} must hold ${KEY_BYTES} bytes, base64-encoded (got ${key.length} bytes).`);
  }
  return key;
}

/**
 * The key secrets are sealed with: `envValue` (the setting WEBHOOK_SECRET_KEY, 32 bytes base64) when
 * given, else `<dataDir>/webhook-secret-key`, created once (mode 0600) with a random key. Every
 * instance sharing a database must use the same key (set the variable when running several).
 */
export function loadSecretKey(dataDir: string, envValue?: string | null): Buffer {
  if (envValue?.trim()) return decodeKey(envValue, 'WEBHOOK_SECRET_KEY');
  const file = path.join(dataDir, SECRET_KEY_FILE);
  try {
    return decodeKey(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  try {
    // `wx`: never overwrite a key another process wrote meanwhile (secrets sealed with it would be lost).
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return decodeKey(readFileSync(file, 'utf8'), file);
  }
}
