import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal values hash equally whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The identity of an event's content for duplicate suppression: SHA-256 of the canonical payload
 * without `occurredAt` (two otherwise equal events differ only in when they happened).
 */
export function payloadHash(payload: Record<string, unknown>): string {
  const { occurredAt: _occurredAt, ...rest } = payload;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}
