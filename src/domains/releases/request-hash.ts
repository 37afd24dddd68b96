import { createHash } from 'node:crypto';

/** A copy of a JSON value with every object's keys in sorted order, built without intermediate arrays. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = canonical(value[i]);
    return copy;
  }
  if (value && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(source).sort()) {
      // A "__proto__" key of the body stays a key, as JSON.parse made it.
      if (key === '__proto__')
        Object.defineProperty(sorted, key, {
          value: canonical(source[key]),
          enumerable: true,
          writable: true,
        });
      else sorted[key] = canonical(source[key]);
    }
    return sorted;
  }
  return value;
}

/** A stable hash of a JSON value: object keys sorted, so key order in the request does not matter. */
export function requestHash(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(value) ?? null))
    .digest('hex');
}
