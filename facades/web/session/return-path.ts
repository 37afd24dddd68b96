/** The signed-in pages a sign-in may return to: anything else is never a `next`. */
const RETURNABLE = ['/dashboard', '/settings'] as const;
/** Pages a sign-in must not return to (they would sign in, or out, again). */
const NEVER = ['/settings/sign-in', '/settings/sign-out', '/dashboard/sign-out'];
const MAX_LENGTH = 2000;
const BASE = 'http://return-path.invalid';

/**
 * The page a sign-in returns to, from a `next` parameter: a path of ours under /dashboard or /settings,
 * as the URL parser reads it (dot segments resolved), with its query and without its fragment; null for
 * anything else. Never another origin: `//host`, `/\host`, backslashes, control characters, schemes
 * and user-info are all refused before parsing, and the parsed URL must still be on the same origin.
 */
export function returnPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_LENGTH) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (!raw.startsWith('/') || raw.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || url.username || url.password) return null;
  const path = url.pathname;
  if (!RETURNABLE.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return null;
  if (NEVER.includes(path)) return null;
  return `${path}${url.search}`;
}
