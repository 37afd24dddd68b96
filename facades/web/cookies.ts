import type { Request } from 'express';

/** The request's cookies by name, their values URI-decoded. */
export function cookiesOf(req: Request): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) jar.set(part.slice(0, eq).trim(), decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return jar;
}

export interface CookieOptions {
  path: string;
  maxAgeMs: number;
  sameSite: 'Lax' | 'Strict';
  /** Sent over https only (the service's PUBLIC_URL is https). */
  secure: boolean;
}

/** A Set-Cookie value: always HttpOnly; a max age of 0 clears the cookie. */
export function cookieHeader(name: string, value: string, options: CookieOptions): string {
  const maxAge = Math.floor(options.maxAgeMs / 1000);
  return `${name}=${encodeURIComponent(value)}; Path=${options.path}; HttpOnly; SameSite=${options.sameSite}; Max-Age=${maxAge}${options.secure ? '; Secure' : ''}`;
}
