/**
 * Outbound HTTP to user-supplied URLs (URL import, webhooks), guarded against SSRF.
 *
 * A user URL must not become a way into our own network: loopback, private ranges, link-local,
 * CGNAT, multicast, cloud metadata and the like are refused, also when spelled as IPv4-mapped,
 * NAT64 or 6to4 IPv6, or as decimal/hex IPv4 (WHATWG URL parsing normalises those first).
 *
 * - Literal IP hosts are checked before anything is sent.
 * - Host names are resolved ONCE, inside the socket's own `lookup`: every address is checked and
 *   the checked addresses are the ones the socket connects to. Checking with one lookup and
 *   connecting after another would let a DNS server answer "public" to the check and "private"
 *   to the connection (DNS rebinding); here there is no second answer to exploit.
 * - Redirects are followed by hand and every hop goes through the same checks (scheme, literal
 *   address, resolution at connect), since a public server can redirect into a private one.
 * - Timeouts bound the connection, the wait for headers (also one deadline over all hops) and each
 *   idle gap in the body. The body is streamed, never buffered, so there is no size limit here.
 * - TLS certificates are always verified (extra CAs can be added, checks never disabled).
 *
 * The only way to reach non-public addresses is OutboundPolicy.allowPrivate (the setting
 * OUTBOUND_ALLOW_PRIVATE, for development and tests, unsafe in production).
 */
import { PassThrough, type Readable } from 'node:stream';
import { getCACertificates } from 'node:tls';
import { Agent, request as undiciRequest } from 'undici';
import { AppError } from '../errors.ts';
import type { OutboundPolicy } from './address-policy.ts';
import { guardedLookup, type Resolver, systemResolver } from './guarded-lookup.ts';
import { type FailureContext, mapBodyError, mapRequestError, timedOut } from './upstream-errors.ts';
import { checkOutboundUrl, urlHost } from './url-guard.ts';

export interface OutboundClientOptions {
  policy: OutboundPolicy;
  /** Bounds the connection, the header wait (over all redirect hops) and each idle gap in the body. */
  timeoutSeconds: number;
  /** Host name resolution; defaults to the system resolver (`dns.lookup`, all addresses). */
  resolver?: Resolver;
  /** Redirects followed before giving up with `too_many_redirects`. */
  maxRedirects?: number;
  /** PEM certificates trusted in addition to Node's default store (which honours NODE_EXTRA_CA_CERTS). */
  extraCaCertificates?: readonly string[];
  /**
   * Connections open to one origin at most (unbounded by default); requests beyond wait for one. Without
   * it, a request sent while another's connection is being handed back opens a new one: a burst at a
   * concurrency of 8 opened 16 connections to its receiver.
   */
  connectionsPerOrigin?: number;
}

/** A body that can be sent again on a 307/308 redirect is a string or bytes; a stream cannot. */
export type OutboundBody = string | Uint8Array | Readable;

export interface OutboundRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: OutboundBody | null;
  /** Aborts the request, and the body stream once the response has started. */
  signal?: AbortSignal;
  /**
   * `follow` (default): redirects are followed, each hop checked. `manual`: a redirect is the answer
   * (status and Location, nothing fetched from it). `error`: a redirect fails with redirect_not_followed.
   */
  redirect?: 'follow' | 'manual' | 'error';
  /** The caller's name for the field that held the URL (`details[].path` of refusals); default `url`. */
  fieldPath?: string;
  /**
   * For callers that need only the status: the response body is read to its end and dropped before
   * the request resolves (the returned body has ended), so the keep-alive connection goes back to the
   * pool. A body longer than this many bytes closes the connection instead.
   */
  discardBodyBytes?: number;
}

/**
 * How long a discarded body may take after the status: past it the connection is closed. Each chunk
 * may come within the body timeout, so without a deadline a server trickling bytes would hold the
 * caller (a webhook delivery slot) for as long as it liked.
 */
export const DISCARD_DEADLINE_MS = 1000;

export type OutboundHeaders = Record<string, string | string[] | undefined>;

export interface OutboundResponse {
  status: number;
  headers: OutboundHeaders;
  /** The final URL, after redirects. */
  url: string;
  /** Redirects followed to get here. */
  redirects: number;
  /** The response body, to be streamed; fails with upstream_error AppErrors. */
  body: Readable;
  /** Releases the connection without reading the rest of the body (safe to call more than once). */
  dispose(): void;
  [Symbol.dispose](): void;
}

export interface OutboundClient {
  /**
   * Sends a request, following redirects. Any final status is returned (non-2xx is not thrown; see
   * `expectOk`). Rejects with invalid_request_error (`invalid_url`, `unsupported_url_scheme`,
   * `url_not_allowed`, `url_unresolvable`) or upstream_error (`upstream_unreachable`,
   * `upstream_timeout`, `upstream_tls_failed`, `too_many_redirects`, `redirect_not_followed`).
   */
  request(url: string | URL, options?: OutboundRequestOptions): Promise<OutboundResponse>;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'transfer-encoding',
];
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export function createOutboundClient(options: OutboundClientOptions): OutboundClient {
  const { policy, timeoutSeconds, maxRedirects = 5 } = options;
  const timeoutMs = timeoutSeconds * 1000;
  const extraCa = options.extraCaCertificates ?? [];
  const agent = new Agent({
    connect: {
      lookup: guardedLookup(policy, options.resolver ?? systemResolver),
      timeout: timeoutMs,
      ...(extraCa.length ? { ca: [...getCACertificates('default'), ...extraCa] } : {}),
    },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    ...(options.connectionsPerOrigin ? { connections: options.connectionsPerOrigin } : {}),
  });

  async function request(input: string | URL, init: OutboundRequestOptions = {}): Promise<OutboundResponse> {
    const fieldPath = init.fieldPath ?? 'url';
    let url = checkOutboundUrl(input, policy, { fieldPath });
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body ?? null;
    let headers: Record<string, string> = { ...init.headers };
    let redirectedFrom: string | undefined;
    const context = (): FailureContext => ({ fieldPath, url, timeoutSeconds, redirectedFrom });

    init.signal?.throwIfAborted();
    const controller = new AbortController();
    const forwardAbort = () => controller.abort(init.signal?.reason);
    init.signal?.addEventListener('abort', forwardAbort, { once: true });
    const unlink = () => init.signal?.removeEventListener('abort', forwardAbort);
    let deadlineHit = false;
    const deadline = setTimeout(() => {
      deadlineHit = true;
      controller.abort(timedOut(urlHost(url), timeoutSeconds));
    }, timeoutMs);

    try {
      for (let redirects = 0; ; redirects++) {
        let response: Awaited<ReturnType<typeof undiciRequest>>;
        try {
          response = await undiciRequest(url, {
            dispatcher: agent,
            method,
            headers,
            body,
            signal: controller.signal,
          });
        } catch (error) {
          if (deadlineHit) throw timedOut(urlHost(url), timeoutSeconds, error);
          if (init.signal?.aborted) throw init.signal.reason;
          throw mapRequestError(error, context());
        }
        const location = firstHeader(response.headers.location);
        if (!REDIRECTS.has(response.statusCode) || location === undefined || init.redirect === 'manual') {
          clearTimeout(deadline);
          if (init.discardBodyBytes !== undefined) {
            // The status decides: a body that fails, or outlasts its deadline, only costs the connection.
            await response.body
              .dump({ limit: init.discardBodyBytes, signal: AbortSignal.timeout(DISCARD_DEADLINE_MS) })
              .catch(() => {});
            unlink();
            return endedResponse(response, url, redirects);
          }
          const failure = context();
          const mapError = (error: unknown) =>
            init.signal?.aborted ? init.signal.reason : mapBodyError(error, failure);
          return wrapResponse(response, url, redirects, mapError, unlink);
        }
        response.body.on('error', () => {}).destroy();
        if (init.redirect === 'error') {
          throw new AppError(
            'upstream_error',
            'redirect_not_followed',
            `${urlHost(url)} redirected (${response.statusCode}), and this request does not follow redirects.`,
          );
        }
        if (redirects >= maxRedirects) {
          throw new AppError(
            'upstream_error',
            'too_many_redirects',
            `The URL redirected more than ${maxRedirects} times.`,
          );
        }
        const from = url;
        let target: URL;
        try {
          target = new URL(location, from);
        } catch {
          throw new AppError(
            'upstream_error',
            'redirect_not_followed',
            `${urlHost(from)} sent an invalid redirect.`,
          );
        }
        redirectedFrom = from.href;
        url = checkOutboundUrl(target, policy, { fieldPath, redirectedFrom });
        if (response.statusCode === 307 || response.statusCode === 308) {
          if (body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
            throw new AppError(
              'upstream_error',
              'redirect_not_followed',
              `${urlHost(from)} redirected (${response.statusCode}) a request whose body cannot be resent.`,
            );
          }
        } else {
          if (method !== 'HEAD') method = 'GET';
          body = null;
          headers = withoutHeaders(headers, BODY_HEADERS);
        }
        if (url.origin !== from.origin) headers = withoutHeaders(headers, CREDENTIAL_HEADERS);
      }
    } catch (error) {
      unlink();
      throw error;
    } finally {
      clearTimeout(deadline);
    }
  }

  return { request, close: () => agent.close() };
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));
}

function wrapResponse(
  response: Awaited<ReturnType<typeof undiciRequest>>,
  url: URL,
  redirects: number,
  mapError: (error: unknown) => Error,
  onClose: () => void,
): OutboundResponse {
  const source = response.body;
  const body = new PassThrough();
  source.on('error', (error) => body.destroy(mapError(error)));
  // The caller may not be reading yet (it awaits scratch space first); its pipeline still sees the error.
  body.on('error', () => {});
  body.on('close', () => {
    onClose();
    if (!source.destroyed) source.destroy();
  });
  source.pipe(body);
  const dispose = () => {
    if (!body.destroyed) body.destroy();
  };
  return {
    status: response.statusCode,
    headers: response.headers,
    url: url.href,
    redirects,
    body,
    dispose,
    [Symbol.dispose]: dispose,
  };
}

/** A response whose body was read to its end and dropped (`discardBodyBytes`). */
function endedResponse(
  response: Awaited<ReturnType<typeof undiciRequest>>,
  url: URL,
  redirects: number,
): OutboundResponse {
  const dispose = () => {};
  return {
    status: response.statusCode,
    headers: response.headers,
    url: url.href,
    redirects,
    body: response.body,
    dispose,
    [Symbol.dispose]: dispose,
  };
}

/** For callers that need success (URL import): throws upstream_error `upstream_status` on non-2xx. */
export function expectOk(response: OutboundResponse, what: string): OutboundResponse {
  if (response.status >= 200 && response.status < 300) return response;
  response.dispose();
  throw new AppError(
    'upstream_error',
    'upstream_status',
    `${what} answered with HTTP status ${response.status}.`,
  );
}
