import type { ErrorDetail } from '../../platform/errors.ts';
import { walkJson } from '../../platform/json-walk.ts';

/**
 * Limits of release and track payloads, checked before anything is stored or priced. Text lands in
 * varchar columns (titles and names: 500; file and profile URLs: 600), so no string may be longer than
 * the column it may reach; lyrics are kept in the payload only.
 */
export const PAYLOAD_LIMITS = {
  text: 500,
  url: 600,
  lyrics: 20_000,
  /** Tracks of one release (a box set fits; a runaway loop does not). */
  tracks: 500,
} as const;

export type PayloadPart = 'release' | 'tracks' | 'trackPatches' | 'uploadRequests';

/** The shape each part must have: one object, or a list of objects. */
const SHAPES: Record<PayloadPart, 'object' | 'objects'> = {
  release: 'object',
  tracks: 'objects',
  trackPatches: 'objects',
  uploadRequests: 'objects',
};

/** The limits of one part in words, for the API reference. */
export function payloadLimitsText(part: PayloadPart): string {
  const text = `Text at most ${PAYLOAD_LIMITS.text} characters (URL fields ${PAYLOAD_LIMITS.url}, lyrics ${PAYLOAD_LIMITS.lyrics.toLocaleString('en')}).`;
  if (part === 'release') return `An object. ${text}`;
  if (part === 'tracks') return `An array of at most ${PAYLOAD_LIMITS.tracks} objects. ${text}`;
  return `An array of objects. ${text}`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function limitFor(key: string): number {
  if (key === 'lyrics') return PAYLOAD_LIMITS.lyrics;
  if (/(_url|Url|_urls|Urls)$/.test(key)) return PAYLOAD_LIMITS.url;
  return PAYLOAD_LIMITS.text;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/**
 * What is wrong with one part of a release payload: its shape, and strings over their limit. Paths are
 * the caller's (`tracks[0].title`). Empty when the part may be stored as it is.
 */
export function payloadProblems(part: PayloadPart, value: unknown): ErrorDetail[] {
  if (value === null || value === undefined) return [];
  const problems: ErrorDetail[] = [];
  if (SHAPES[part] === 'object') {
    if (!isObject(value)) return [{ path: part, message: `must be an object, not ${typeName(value)}` }];
    checkStrings(value, part, problems);
    return problems;
  }
  if (!Array.isArray(value))
    return [{ path: part, message: `must be an array of objects, not ${typeName(value)}` }];
  if (part === 'tracks' && value.length > PAYLOAD_LIMITS.tracks) {
    problems.push({ path: part, message: `at most ${PAYLOAD_LIMITS.tracks} tracks per release` });
  }
  value.forEach((item, index) => {
    const path = `${part}[${index}]`;
    if (!isObject(item)) problems.push({ path, message: `must be an object, not ${typeName(item)}` });
    else checkStrings(item, path, problems);
  });
  return problems;
}

/** Strings over their limit, by the key they sit under (walked without recursion: input may nest deep). */
function checkStrings(value: unknown, path: string, problems: ErrorDetail[]): void {
  walkJson(
    value,
    (node) => {
      if (typeof node.value === 'string') {
        const limit = limitFor(node.key);
        if (node.value.length > limit) {
          problems.push({
            path: node.path,
            message: `at most ${limit} characters (this one has ${node.value.length})`,
          });
        }
      }
      return problems.length >= 20;
    },
    path,
  );
}
