import type { ServerResponse } from 'node:http';
import type { RateLimitReading } from '../src/platform/rate-limit/index.ts';

/** A policy name as a Structured Field String (RFC 9651): quoted, with `"` and `\` escaped. */
const sfString = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, the structured-field form of
 * drafts 08 to 11) for the budgets the answer spent from or was refused by, one list member each:
 * `RateLimit-Policy: "<policy>";q=<quota>;w=<window seconds>` and
 * `RateLimit: "<policy>";r=<remaining>;t=<seconds until points come back>`. Written as each budget is
 * spent, so every answer carries them (a 429 with its Retry-After too); nothing once the head is sent.
 */
export function writeRateLimitHeaders(res: ServerResponse, readings: readonly RateLimitReading[]): void {
  if (res.headersSent || readings.length === 0) return;
  res.setHeader(
    'RateLimit-Policy',
    readings.map((each) => `${sfString(each.policy)};q=${each.quota};w=${each.windowSeconds}`).join(', '),
  );
  res.setHeader(
    'RateLimit',
    readings
      .map(
        (each) =>
          `${sfString(each.policy)};r=${each.remaining}${each.resetSeconds === null ? '' : `;t=${each.resetSeconds}`}`,
      )
      .join(', '),
  );
}
