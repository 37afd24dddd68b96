import { createHash, timingSafeEqual } from 'node:crypto';

/** A host key fingerprint as OpenSSH prints it (`ssh-keygen -l`, `ssh -v`): `SHA256:` and 43 base64 characters. */
const FINGERPRINT = /^SHA256:([A-Za-z0-9+/]{43})=?$/;

/** The fingerprint in OpenSSH's form, or null when `value` is not one (an MD5 `aa:bb:…` one is not). */
export function parseHostKeyFingerprint(value: string): string | null {
  const match = FINGERPRINT.exec(value.trim());
  return match ? `SHA256:${match[1]}` : null;
}

/** The SHA-256 fingerprint of a public host key in SSH wire format, as OpenSSH prints it. */
export function fingerprintOf(key: Uint8Array): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The key's algorithm name (`ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`…): its first wire string. */
export function keyTypeOf(key: Uint8Array): string {
  const bytes = Buffer.from(key);
  if (bytes.length < 4) return 'unknown';
  const length = bytes.readUInt32BE(0);
  return length > 0 && length < 64 && bytes.length >= 4 + length
    ? bytes.subarray(4, 4 + length).toString('latin1')
    : 'unknown';
}

export function sameFingerprint(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
