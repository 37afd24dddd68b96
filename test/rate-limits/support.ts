import type { TestApp } from '../support/app.ts';
import { request } from '../support/http.ts';

/** One member of a RateLimit-Policy or RateLimit field: `"name";k=v;k=v`, parameters as numbers. */
export type Members = Record<string, Record<string, number>>;

/** A structured-field list of policy strings with integer parameters, as this service writes it. */
export function members(field: string | null): Members {
  const parsed: Members = {};
  if (!field) return parsed;
  for (const member of field.split(/,\s*/)) {
    const [name, ...parameters] = member.split(';');
    const key = JSON.parse(name!) as string;
    parsed[key] = Object.fromEntries(
      parameters.map((parameter) => {
        const [k, v] = parameter.split('=');
        return [k!, Number(v)];
      }),
    );
  }
  return parsed;
}

export const policies = (headers: Headers) => members(headers.get('ratelimit-policy'));
export const budgets = (headers: Headers) => members(headers.get('ratelimit'));

export interface ListedLimit {
  name: string;
  action: string;
  keyed_by: string;
  applies_to: string;
  quota: number;
  window_seconds: number;
  remaining: number;
  reset_seconds: number | null;
  resets_at: string | null;
}

export const listRest = (app: TestApp, token: string) =>
  request<{ rate_limits: ListedLimit[] }>(app.url, 'GET', '/v1/rate-limits', { token });

export async function callTool<T = unknown>(
  app: TestApp,
  token: string | undefined,
  name: string,
  args: Record<string, unknown> = {},
) {
  const response = await request(app.url, 'POST', '/api/mcp', {
    ...(token ? { token } : {}),
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  });
  const body = response.body as {
    result?: { content: { text: string }[] };
    error?: { code: number; message: string; data: Record<string, unknown> };
  };
  return {
    headers: response.headers,
    result: body.result ? (JSON.parse(body.result.content[0]!.text) as T) : undefined,
    error: body.error,
  };
}

/** The listing by name, without the figures that move with the clock. */
export const byName = (limits: ListedLimit[]) =>
  Object.fromEntries(limits.map(({ reset_seconds: _seconds, resets_at: _at, ...rest }) => [rest.name, rest]));

/**
 * A RateLimit field with only the named budgets, their reset seconds left out: what two runs for
 * different email addresses from one client must answer alike (the budgets of the client's address
 * count both runs, and the seconds tick).
 */
export const budgetsOnly = (field: string, names: readonly string[]) =>
  field
    .split(/,\s*/)
    .filter((member) => names.includes(JSON.parse(member.split(';')[0]!) as string))
    .map((member) => member.replace(/;t=\d+/, ''))
    .join(', ');
