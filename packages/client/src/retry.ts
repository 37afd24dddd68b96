import { errorFromResponse, TributaryError } from './errors.ts';

/** How requests are retried on 429 and 503. */
export interface RetryPolicy {
  /** Tries in all, the first included (default 3). 1 turns retries off. */
  maxAttempts?: number;
  /** First backoff when the service gives no Retry-After, doubled on each retry (default 500 ms). */
  baseDelayMs?: number;
  /**
   * The longest wait before a retry (default 30 s): an answer asking for longer (a `Retry-After` of
   * two minutes) is not retried, and its RateLimitError or UnavailableError reaches the caller.
   */
  maxDelayMs?: number;
  /** Told before each wait (logging, metrics). */
  onRetry?: (retry: { attempt: number; delayMs: number; error: TributaryError }) => void;
}

const DEFAULT_RETRY: Required<Omit<RetryPolicy, 'onRetry'>> = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

/** The statuses that say "try again later": rate limited, or unavailable for a moment. */
const RETRIED_STATUSES = new Set([429, 503]);

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * Whether sending the request twice is safe: an idempotent method, or a request carrying an
 * `Idempotency-Key` (the service answers a repeated key with the first answer).
 */
export function isIdempotent(request: Request): boolean {
  return IDEMPOTENT_METHODS.has(request.method.toUpperCase()) || request.headers.has('idempotency-key');
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The wait before retry `attempt` (1 for the first retry), or null when the error is not retried: the
 * service's `Retry-After` when it gives one (not retried past `maxDelayMs`), else exponential backoff
 * with jitter.
 */
function delayBefore(policy: Required<Omit<RetryPolicy, 'onRetry'>>, attempt: number, error: TributaryError) {
  if (!RETRIED_STATUSES.has(error.status)) return null;
  if (error.retryAfterSeconds !== undefined) {
    const ms = Math.ceil(error.retryAfterSeconds * 1000);
    return ms > policy.maxDelayMs ? null : ms;
  }
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(backoff / 2 + (Math.random() * backoff) / 2);
}

export type Retrier = <T>(
  attempt: () => Promise<T>,
  options: {
    retryable: boolean;
    signal?: AbortSignal | null | undefined;
    /** Further says whether an error is worth a retry. */
    unless?: (error: TributaryError) => boolean;
  },
) => Promise<T>;

/**
 * Runs `attempt` until it succeeds, retrying a TributaryError of status 429 or 503 when the request is
 * retryable (idempotent, or keyed), at most `maxAttempts` times in all.
 */
export function createRetrier(policy: RetryPolicy | false | undefined): Retrier {
  const settings = { ...DEFAULT_RETRY, ...(policy || {}), ...(policy === false ? { maxAttempts: 1 } : {}) };
  const onRetry = policy ? policy.onRetry : undefined;
  return async (attempt, { retryable, signal, unless }) => {
    for (let tries = 1; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (!retryable || tries >= settings.maxAttempts || !(error instanceof TributaryError)) throw error;
        if (unless?.(error)) throw error;
        const delayMs = delayBefore(settings, tries, error);
        if (delayMs === null) throw error;
        onRetry?.({ attempt: tries, delayMs, error });
        await sleep(delayMs, signal);
      }
    }
  };
}

/**
 * A fetch that retries (see createRetrier) and throws the typed error of any answer that is not a
 * success, so callers only ever see successes. Each try sends a copy of the request.
 */
export function retryingFetch(
  baseFetch: typeof fetch,
  retry: Retrier,
): (request: Request, options?: { idempotent?: boolean }) => Promise<Response> {
  return (request, options = {}) =>
    retry(
      async () => {
        const response = await baseFetch(request.clone());
        if (response.ok || (response.status >= 300 && response.status < 400)) return response;
        throw await errorFromResponse(response);
      },
      { retryable: options.idempotent ?? isIdempotent(request), signal: request.signal },
    );
}
