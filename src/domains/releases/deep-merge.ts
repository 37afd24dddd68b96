type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Delta semantics for drafts: objects merge key by key, recursively; arrays and scalars replace;
 * `null` clears a field. (Tracks are addressed by `track_patches`, not merged by position.)
 */
export function deepMerge(base: Json, patch: Json): Json {
  if (!isObject(base) || !isObject(patch)) return patch;
  const merged: Record<string, Json> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    merged[key] = key in base ? deepMerge(base[key], value) : value;
  }
  return merged;
}
