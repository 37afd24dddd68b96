import { invalidRequest } from '../../platform/errors.ts';

/** Where a payer lands after paying when the caller names nothing. */
export const DEFAULT_SUCCESS_PATH = '/checkout/complete';
export const MAX_SUCCESS_PATH_LENGTH = 2000;

const refuse = (message: string) =>
  invalidRequest(`success_path ${message}`, [{ path: 'success_path', message }], 'invalid_success_path');

/**
 * The absolute URL a checkout returns to. A path (`/…`) is resolved on PUBLIC_URL; an absolute URL must
 * be on PUBLIC_URL's own origin: its scheme, host and port (another port of the same host is another
 * service). Anything else (another origin, `//host`, backslashes, control characters, user-info, other
 * schemes) is refused, so a checkout link can never be an open redirect.
 */
export function resolveSuccessUrl(publicUrl: string, successPath: string | null | undefined): string {
  const base = new URL(publicUrl);
  const raw = successPath ?? DEFAULT_SUCCESS_PATH;
  if (raw.length === 0 || raw.length > MAX_SUCCESS_PATH_LENGTH)
    throw refuse(`must be 1..${MAX_SUCCESS_PATH_LENGTH} characters.`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(raw))
    throw refuse('must not contain control characters or backslashes.');
  if (raw.startsWith('/')) {
    if (raw.startsWith('//')) throw refuse('must be a path on this service (`/…`), not `//host`.');
    const resolved = new URL(raw, base);
    if (resolved.origin !== base.origin) throw refuse('must stay on this service.');
    return resolved.href;
  }
  if (!URL.canParse(raw)) throw refuse(`must be a path (\`/…\`) or an absolute URL on ${base.origin}.`);
  const url = new URL(raw);
  if (url.origin !== base.origin || url.username || url.password)
    throw refuse(`must be on this service (${base.origin}) when absolute: same scheme, host and port.`);
  return url.href;
}
