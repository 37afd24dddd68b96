import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A high-entropy secret with a recognisable prefix (e.g. `svc_pat_…`): 32 random bytes, base64url by
 * default; `base64` (standard, padded) where a receiver's library decodes it (webhook signing secrets).
 */
export function generateSecret(prefix: string, encoding: 'base64url' | 'base64' = 'base64url'): string {
  return `${prefix}${randomBytes(32).toString(encoding)}`;
}

/**
 * Secrets with 256 bits of entropy need no slow hash: SHA-256 is the stored form and the lookup key.
 * One-shot `hash` (no Hash object): every authenticated request computes one.
 */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
