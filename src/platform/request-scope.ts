import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

/**
 * The request id of the HTTP request being served, for code that has no handle on the request (GraphQL
 * error masking, log lines deep in a library callback). Set once per request by the HTTP entry.
 */
export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return scope.run(requestId, fn);
}

export function currentRequestId(): string | undefined {
  return scope.getStore();
}
