import { hash, verify } from '@node-rs/argon2';
import { AppError } from '../../platform/errors.ts';

/**
 * argon2id with the OWASP Password Storage parameters (19 MiB, 2 passes, 1 lane); docs/oauth.md gives
 * the measured cost. The algorithm number is argon2id's (the package's enum is a `const enum`, which
 * type stripping cannot inline).
 */
export const PASSWORD_HASH_OPTIONS = {
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** What is weak about a password, or null: length is the rule (NIST SP 800-63B), not composition. */
export function passwordWeakness(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `too short (${password.length} characters)`;
  if (password.length > PASSWORD_MAX_LENGTH) return `too long (${password.length} characters)`;
  if (new Set(password).size < 3) return 'too repetitive (fewer than 3 different characters)';
  return null;
}

export function assertStrongPassword(password: string, path = 'password'): void {
  const weakness = passwordWeakness(password);
  if (weakness) {
    const rule = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, at least 3 different ones`;
    throw new AppError(
      'validation_error',
      'weak_password',
      `The password is ${weakness}: it must be ${rule}.`,
      {
        details: [{ path, message: weakness, rule: 'weak_password' }],
      },
    );
  }
}

export async function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/** A hash of nothing anyone knows: verified against when the account does not exist, to take as long. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    decoy ??= hashPassword(`decoy-${Math.random()}`);
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
