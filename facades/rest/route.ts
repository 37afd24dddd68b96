import type { Request, Response } from 'express';
import { invalidRequest } from '../../src/platform/errors.ts';

/** Where a GraphQL variable comes from in an HTTP request, and how its text becomes a value. */
export interface VariableSource {
  from: 'query' | 'path' | 'body' | 'header';
  /** The field name as the REST client spells it (also used in error paths). */
  name: string;
  parse?: (raw: unknown, name: string) => unknown;
  description?: string;
  schema?: Record<string, unknown>;
}

export interface RestRoute {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Express-style path under /v1, e.g. `/releases/:id`. */
  path: string;
  summary: string;
  tag: string;
  auth: 'public' | 'bearer';
  /** The GraphQL operation; aliases give the documented field names. */
  document: string;
  variables?: Record<string, VariableSource>;
  /** The field of `data` that is the response body; omitted, the whole of `data` is. */
  select?: string;
  status?: number;
  /** Custom rendering (e.g. content negotiation); returns true when it answered. */
  render?: (body: unknown, req: Request, res: Response) => boolean;
  /**
   * Error statuses beyond the usual ones (e.g. `502`, `503` of a route that calls a provider; `404` of a
   * route that names a resource in its body).
   */
  errors?: readonly ('404' | '502' | '503')[];
  /** Extra OpenAPI notes for responses that are not JSON. */
  produces?: string[];
}

export const query = (
  name: string,
  parse?: VariableSource['parse'],
  description?: string,
  schema?: Record<string, unknown>,
): VariableSource => ({
  from: 'query',
  name,
  ...(parse ? { parse } : {}),
  ...(description ? { description } : {}),
  ...(schema ? { schema } : {}),
});

export const pathParam = (name: string): VariableSource => ({ from: 'path', name });

export const header = (name: string, description?: string): VariableSource => ({
  from: 'header',
  name,
  ...(description ? { description } : {}),
});

export const bodyField = (name: string, parse?: VariableSource['parse']): VariableSource => ({
  from: 'body',
  name,
  ...(parse ? { parse } : {}),
});

/** Query-string integers: the text must be a whole number, else 400 naming the parameter. */
export function integer(raw: unknown, name: string): number {
  const text = String(raw);
  if (!/^-?\d+$/.test(text)) {
    throw invalidRequest(
      `${name} must be an integer.`,
      [{ path: name, message: 'not an integer' }],
      'invalid_parameter',
    );
  }
  return Number.parseInt(text, 10);
}

/** Query-string integers from `min` to `max`, else 400 naming the parameter. */
export const integerFrom =
  (min: number, max: number) =>
  (raw: unknown, name: string): number => {
    const value = integer(raw, name);
    if (value >= min && value <= max) return value;
    const message = `must be between ${min} and ${max}`;
    throw invalidRequest(`${name}: ${message}`, [{ path: name, message }], 'invalid_argument');
  };

/** Query-string booleans: `true` or `false` (also 1/0), else 400 naming the parameter. */
export function boolean(raw: unknown, name: string): boolean {
  const text = String(raw).toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw invalidRequest(
    `${name} must be true or false.`,
    [{ path: name, message: 'not a boolean' }],
    'invalid_parameter',
  );
}
