import { isIP } from 'node:net';
import { AppError } from '../errors.ts';
import { checkAddress, describeAddressClass, type OutboundPolicy } from './address-policy.ts';

const SCHEMES = new Set(['http:', 'https:']);

export interface UrlCheckContext {
  /** The caller's name for the field holding the URL (error `details[].path`). */
  fieldPath: string;
  /** Set when checking a redirect target: the URL that redirected. */
  redirectedFrom?: string;
}

function refuse(code: string, message: string, context: UrlCheckContext, cause?: unknown): AppError {
  const full = context.redirectedFrom
    ? `The URL redirected (from ${context.redirectedFrom}) to a location that is refused. ${message}`
    : message;
  return new AppError('invalid_request_error', code, full, {
    details: [{ path: context.fieldPath, message: full }],
    cause,
  });
}

/** The host of a URL without IPv6 brackets. */
export const urlHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Parses and checks one URL (the caller's, or a redirect target): http/https only, no credentials,
 * and a literal IP host must be allowed by the policy. WHATWG URL parsing has already normalised
 * decimal, octal and hex IPv4 spellings (`http://2130706433/` is 127.0.0.1) before the check.
 * Host names are checked later, at connection time, against what they resolve to.
 */
export function checkOutboundUrl(input: string | URL, policy: OutboundPolicy, context: UrlCheckContext): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw refuse('invalid_url', 'The URL is not a valid absolute URL.', context);
  }
  if (!SCHEMES.has(url.protocol)) {
    throw refuse(
      'unsupported_url_scheme',
      `The URL scheme ${url.protocol.replace(/:$/, '')} is not supported; use http or https.`,
      context,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw refuse('url_not_allowed', 'URLs with credentials (user:password@) are not accepted.', context);
  }
  const host = urlHost(url);
  if (isIP(host) !== 0) {
    const verdict = checkAddress(host, policy);
    if (!verdict.allowed) {
      const what = describeAddressClass(verdict.reason ?? 'invalid');
      throw refuse(
        'url_not_allowed',
        `The URL points to ${what} (${host}); only public internet addresses can be fetched.`,
        context,
      );
    }
  }
  url.hash = '';
  return url;
}

export function addressRefusal(
  host: string,
  address: string,
  what: string,
  context: UrlCheckContext,
): AppError {
  return refuse(
    'url_not_allowed',
    `The URL host ${host} resolves to ${what} (${address}); only public internet addresses can be fetched.`,
    context,
  );
}

export function unresolvable(host: string, context: UrlCheckContext, cause?: unknown): AppError {
  return refuse('url_unresolvable', `The URL host ${host} could not be resolved.`, context, cause);
}
