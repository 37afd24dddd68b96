import { Readable } from 'node:stream';
import type { OutboundClient } from './safe-fetch.ts';

/**
 * The SSRF-guarded client behind a WHATWG `fetch` signature, for libraries that fetch user-supplied
 * URLs themselves (oidc-provider's client ID metadata documents): every address rule, timeout and
 * redirect limit of the client applies. Refusals reject, as a network error of fetch would. The
 * caller's `redirect` is honoured: oidc-provider asks for `manual` on client ID metadata documents (a
 * document must be served at its own URL), so a 3xx is handed back as it came, never followed.
 */
export function asFetch(client: OutboundClient) {
  return async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const response = await client.request(String(input), {
      method: init.method ?? 'GET',
      headers,
      ...(typeof init.body === 'string' ? { body: init.body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
      ...(init.redirect ? { redirect: init.redirect } : {}),
    });
    const answer = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const each of Array.isArray(value) ? value : [value]) answer.append(name, each);
    }
    const empty = response.status === 204 || response.status === 304 || init.method === 'HEAD';
    return new Response(empty ? null : (Readable.toWeb(response.body) as ReadableStream), {
      status: response.status,
      headers: answer,
    });
  };
}
