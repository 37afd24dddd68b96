import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The authorization server's own secrets: they must be the same on every instance sharing a database. */
export interface OAuthKeys {
  /** Signs the authorization server's cookies (interaction, session). */
  cookieKeys: string[];
  /** Seals the few stored values that must be read back (a session's id). */
  sealKey: Buffer;
  /** Signs ID tokens (only for clients asking for `openid`). */
  jwks: { keys: Record<string, unknown>[] };
}

interface StoredKeys {
  cookieKey: string;
  sealKey: string;
  signingJwk: Record<string, unknown>;
}

export const OAUTH_KEYS_FILE = 'oauth-keys.json';

function generate(): StoredKeys {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    cookieKey: randomBytes(32).toString('base64url'),
    sealKey: randomBytes(32).toString('base64url'),
    signingJwk: { ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256' },
  };
}

function parse(text: string, source: string): OAuthKeys {
  let stored: StoredKeys;
  try {
    stored = JSON.parse(text) as StoredKeys;
  } catch {
    throw new Error(`${source} is not JSON.`);
  }
  const sealKey = Buffer.from(String(stored.sealKey ?? ''), 'base64url');
  if (typeof stored.cookieKey !== 'string' || stored.cookieKey.length < 32 || sealKey.length !== 32) {
    throw new Error(`${source} must hold cookieKey (32+ characters), sealKey (32 bytes) and signingJwk.`);
  }
  if (stored.signingJwk?.kty !== 'RSA') throw new Error(`${source}: signingJwk must be an RSA private JWK.`);
  return { cookieKeys: [stored.cookieKey], sealKey, jwks: { keys: [stored.signingJwk] } };
}

/**
 * OAUTH_KEYS (the JSON of `<dataDir>/oauth-keys.json`) when set, else that file, created once (mode 0600).
 * Set the variable when running several instances.
 */
export function loadOAuthKeys(dataDir: string, envValue?: string | null): OAuthKeys {
  if (envValue?.trim()) return parse(envValue, 'OAUTH_KEYS');
  const file = path.join(dataDir, OAUTH_KEYS_FILE);
  try {
    return parse(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, `${JSON.stringify(generate())}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parse(readFileSync(file, 'utf8'), file);
}
