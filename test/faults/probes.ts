import { request } from '../support/http.ts';

/** A probe without an answer this long counts as dropped (status null), and its loop goes on. */
const PROBE_TIMEOUT_MS = 10_000;

/** One answer a probe saw: the surface, the HTTP status, and what the answer says went wrong. */
export interface Seen {
  surface: 'rest' | 'graphql' | 'agent';
  at: number;
  status: number | null;
  retryAfter: string | null;
  /** The error's type and code in the surface's own vocabulary, when the answer is an error. */
  type?: string;
  code?: string;
}

/** A failure no outage excuses: a 500, a masked error, a 503 without Retry-After or its code. */
export function unexcused(seen: Seen): boolean {
  if (seen.status === null) return true;
  if (seen.type === 'api_error' || seen.status >= 500) {
    return !(
      seen.type === 'unavailable_error' &&
      seen.code === 'database_unavailable' &&
      seen.retryAfter !== null
    );
  }
  return false;
}

/** A 503 in the documented vocabulary, as each surface words it. */
export const isUnavailable = (seen: Seen) => seen.type === 'unavailable_error' && !unexcused(seen);

/**
 * Reads the account through each surface in turn, every `everyMs`, until stopped, and keeps what each
 * answer was: the outage must show as 503s in each surface's vocabulary, never as a 500.
 */
export class Prober {
  readonly seen: Seen[] = [];
  #stopped = false;
  #loop: Promise<void> | null = null;
  readonly #url: () => string;
  readonly #token: string;

  constructor(url: () => string, token: string) {
    this.#url = url;
    this.#token = token;
  }

  start(everyMs = 50): void {
    this.#loop = (async () => {
      while (!this.#stopped) {
        for (const probe of [this.rest, this.graphql, this.agent]) this.seen.push(await probe.call(this));
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    })();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#loop;
  }

  /** One request as the account, given up after PROBE_TIMEOUT_MS. */
  #ask(method: string, path: string, body?: unknown) {
    return request(this.#url(), method, path, {
      token: this.#token,
      body,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  }

  async rest(): Promise<Seen> {
    const at = Date.now();
    try {
      const answer = await this.#ask('GET', '/v1/me');
      return {
        surface: 'rest',
        at,
        status: answer.status,
        retryAfter: answer.headers.get('retry-after'),
        ...(answer.status >= 400 ? { type: answer.body.type, code: answer.body.code } : {}),
      };
    } catch {
      return { surface: 'rest', at, status: null, retryAfter: null };
    }
  }

  async graphql(): Promise<Seen> {
    const at = Date.now();
    try {
      const answer = await this.#ask('POST', '/graphql', { query: '{ me { id email } }' });
      const error = answer.body?.errors?.[0]?.extensions;
      return {
        surface: 'graphql',
        at,
        status: answer.status,
        retryAfter: answer.headers.get('retry-after'),
        ...(error ? { type: error.type, code: error.code } : {}),
      };
    } catch {
      return { surface: 'graphql', at, status: null, retryAfter: null };
    }
  }

  async agent(): Promise<Seen> {
    const at = Date.now();
    try {
      const answer = await this.#ask('POST', '/api/mcp', {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_profile', arguments: {} },
      });
      const error = answer.body?.error;
      return {
        surface: 'agent',
        at,
        status: answer.status,
        // JSON-RPC carries the error inside the body: retryAfterSeconds stands for the header there.
        retryAfter:
          answer.headers.get('retry-after') ??
          (error?.data?.retryAfterSeconds === undefined ? null : String(error.data.retryAfterSeconds)),
        ...(error ? { type: error.data?.type, code: error.data?.code } : {}),
      };
    } catch {
      return { surface: 'agent', at, status: null, retryAfter: null };
    }
  }
}
