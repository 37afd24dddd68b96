import { AsyncLocalStorage } from 'node:async_hooks';
import type { RateLimitReading } from './rate-limit/reading.ts';

interface RequestScope {
  requestId: string;
  /** Told, each time, of every budget the request has spent from or been refused by so far. */
  onRateLimits: ((readings: readonly RateLimitReading[]) => void) | undefined;
  readings: RateLimitReading[] | undefined;
}

const scope = new AsyncLocalStorage<RequestScope>();

/**
 * The HTTP request being served, for code that has no handle on the request (GraphQL error masking, log
 * lines deep in a library callback, the rate limiter). Set once per request by the HTTP entry, which
 * also says what to do with the rate-limit budgets the request spends (its answer's headers).
 */
export function runInRequestScope<T>(
  request: { requestId: string; onRateLimits?: (readings: readonly RateLimitReading[]) => void },
  fn: () => T,
): T {
  return scope.run(
    { requestId: request.requestId, onRateLimits: request.onRateLimits, readings: undefined },
    fn,
  );
}

export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}

/**
 * Notes a budget the current request spent from (or was refused by); a later reading of the same policy
 * replaces an earlier one. Outside a request (a job, a WebSocket message) nothing is noted.
 */
export function noteRateLimit(reading: RateLimitReading): void {
  const store = scope.getStore();
  if (!store) return;
  store.readings ??= [];
  const readings = store.readings;
  const index = readings.findIndex((each) => each.policy === reading.policy);
  if (index === -1) readings.push(reading);
  else readings[index] = reading;
  store.onRateLimits?.(readings);
}
