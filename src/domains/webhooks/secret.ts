import { generateSecret } from '../../platform/crypto.ts';

const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Characters of the secret kept in clear for display (`whsec_` and 4 more). */
const SECRET_PREFIX_LENGTH = 10;

/**
 * A new signing secret: `whsec_` + 32 random bytes in standard base64 (padded), the form the Standard
 * Webhooks libraries decode as given. Secrets made before were base64url (`-_`, no padding).
 */
export function generateWebhookSecret(): string {
  return generateSecret(WEBHOOK_SECRET_PREFIX, 'base64');
}

export const secretPrefixOf = (secret: string): string => secret.slice(0, SECRET_PREFIX_LENGTH);

/**
 * The Standard Webhooks key of a signing secret: the bytes the text after `whsec_` encodes. Node's
 * decoder reads standard base64 and base64url alike, so a secret made before standard base64 (base64url)
 * keys the same 32 bytes; its receiver gives the Standard Webhooks library the secret with `-` as `+`, `_`
 * as `/` and `=` padding added.
 */
export function standardWebhooksKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  return Buffer.from(encoded, 'base64');
}
