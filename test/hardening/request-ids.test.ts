import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/platform/logger.ts';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';

const app = useTestApp();
let account: AccountFixture;
const logged: { requestId?: string }[] = [];
let restore: (() => void) | undefined;

beforeAll(async () => {
  account = await accountWithToken(app().em(), { credits: 1 });
  const logger = app().services.logger as Logger;
  const original = logger.error.bind(logger);
  logger.error = ((obj: { requestId?: string }, ...rest: unknown[]) => {
    logged.push(obj);
    return (original as (...args: unknown[]) => void)(obj, ...rest);
  }) as Logger['error'];
});

afterEach(() => {
  restore?.();
  restore = undefined;
  logged.length = 0;
});

/** Makes the service-status resolver fail the way a bug would: an Error that is not a domain error. */
function breakServiceStatus(): void {
  const services = app().services as unknown as Record<string, unknown>;
  const version = services.version;
  Object.defineProperty(services, 'version', {
    configurable: true,
    get: () => {
      throw new Error('internal detail that must not leak');
    },
  });
  restore = () =>
    Object.defineProperty(services, 'version', { configurable: true, writable: true, value: version });
}

async function post(path: string, body: unknown) {
  const response = await fetch(`${app().url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { header: response.headers.get('x-request-id'), body: (await response.json()) as any };
}

describe('the request id', () => {
  it('of a masked GraphQL error is the response header and the log line, not a literal', async () => {
    breakServiceStatus();
    const answer = await post('/graphql', { query: '{ serviceStatus { version } }' });
    const error = answer.body.errors[0];
    expect(error.extensions).toMatchObject({ type: 'api_error', code: 'internal_error' });
    expect(JSON.stringify(answer.body)).not.toContain('internal detail');
    expect(error.extensions.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.extensions.requestId).toBe(answer.header);
    expect(logged.map((line) => line.requestId)).toContain(answer.header);
  });

  it('of a masked REST error is the response header and the log line', async () => {
    breakServiceStatus();
    const response = await fetch(`${app().url}/v1/status`);
    const body = (await response.json()) as Record<string, string>;
    expect(response.status).toBe(500);
    expect(body.requestId).toBe(response.headers.get('x-request-id'));
    expect(logged.map((line) => line.requestId)).toContain(body.requestId);
  });

  it('is in every REST error envelope and every JSON-RPC error', async () => {
    const rest = await post('/v1/releases/quote', { nothing: true });
    expect(rest.body.type).toBe('invalid_request_error');
    expect(rest.body.requestId).toBe(rest.header);
    const rpc = await post('/api/mcp', {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'no_such_tool', arguments: {} },
    });
    expect(rpc.body.error.data.requestId).toBe(rpc.header);
  });

  it('a client-supplied X-Request-Id is kept when well formed', async () => {
    const response = await fetch(`${app().url}/v1/me`, {
      headers: { authorization: `Bearer ${account.token}`, 'x-request-id': 'client-trace-42' },
    });
    expect(response.headers.get('x-request-id')).toBe('client-trace-42');
  });
});
