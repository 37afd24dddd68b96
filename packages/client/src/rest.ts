import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/rest.ts';

/** The REST API under /v1, typed by the OpenAPI document (openapi-fetch). Errors throw typed. */
export type RestClient = Client<paths>;

/** Paths whose POST charges or creates once per key: the client sends a fresh Idempotency-Key. */
const KEYED_POSTS = new Set(['/releases']);

export function createRestClient(options: {
  baseUrl: string;
  fetch: (request: Request) => Promise<Response>;
  headers: () => Record<string, string>;
}): RestClient {
  const client = createClient<paths>({ baseUrl: `${options.baseUrl}/v1`, fetch: options.fetch });
  client.use({
    onRequest: ({ request, schemaPath }) => {
      for (const [name, value] of Object.entries(options.headers()))
        if (!request.headers.has(name)) request.headers.set(name, value);
      // Every submission carries a key, so a retry (ours or the caller's) never charges twice.
      if (request.method === 'POST' && KEYED_POSTS.has(schemaPath) && !request.headers.has('idempotency-key'))
        request.headers.set('Idempotency-Key', crypto.randomUUID());
      return request;
    },
  });
  return client;
}
