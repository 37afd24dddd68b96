import { invalidRequest } from '../../platform/errors.ts';

export const TOKEN_EXPIRIES = ['30d', '90d', '1y', 'none'] as const;
export type TokenExpiry = (typeof TOKEN_EXPIRIES)[number];

const DAY_MS = 86_400_000;
const DURATIONS: Record<TokenExpiry, number | null> = {
  '30d': 30 * DAY_MS,
  '90d': 90 * DAY_MS,
  '1y': 365 * DAY_MS,
  none: null,
};

export function parseTokenExpiry(value: string): TokenExpiry {
  if ((TOKEN_EXPIRIES as readonly string[]).includes(value)) return value as TokenExpiry;
  throw invalidRequest(`expires must be one of ${TOKEN_EXPIRIES.join(', ')}`, [
    { path: 'expires', message: 'unknown expiry' },
  ]);
}

export function expiryDate(expiry: TokenExpiry, now: Date): Date | null {
  const duration = DURATIONS[expiry];
  return duration === null ? null : new Date(now.getTime() + duration);
}
