import { ERROR_TYPES as DOCUMENTED_ERROR_TYPES } from '../../facades/rest/openapi/errors.ts';
import type { FuzzRequest } from './targets.ts';

const ERROR_TYPES = new Set<string>(DOCUMENTED_ERROR_TYPES);

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The documented REST envelope, or what is wrong with it. */
function envelopeProblem(body: unknown): string | null {
  if (!isObject(body)) return 'error body is not a JSON object';
  if (typeof body.type !== 'string' || !ERROR_TYPES.has(body.type))
    return `unknown error type ${String(body.type)}`;
  if (typeof body.code !== 'string' || !body.code) return 'error without a code';
  if (typeof body.message !== 'string' || !body.message) return 'error without a message';
  if (body.details !== undefined) {
    if (!Array.isArray(body.details)) return 'details is not an array';
    for (const d of body.details)
      if (!isObject(d) || typeof d.path !== 'string' || typeof d.message !== 'string')
        return 'a detail without path/message';
  }
  return null;
}

function rpcProblem(answer: Answer): string | null {
  if (answer.status === 202) return answer.text === '' ? null : '202 with a body';
  const body = parse(answer.text);
  const messages = Array.isArray(body) ? body : [body];
  for (const m of messages) {
    if (!isObject(m) || m.jsonrpc !== '2.0') return 'not a JSON-RPC 2.0 response';
    if ('error' in m) {
      const e = m.error;
      if (!isObject(e) || typeof e.code !== 'number' || typeof e.message !== 'string')
        return 'malformed JSON-RPC error';
    } else if (!('result' in m)) return 'neither result nor error';
    if (!(m.id === null || typeof m.id === 'string' || typeof m.id === 'number'))
      return `response id ${JSON.stringify(m.id)}`;
  }
  return null;
}

function graphQLProblem(answer: Answer): string | null {
  const body = parse(answer.text);
  if (!isObject(body)) return 'GraphQL answer is not a JSON object';
  if (!('data' in body) && !('errors' in body)) return 'neither data nor errors';
  for (const e of (body.errors as unknown[] | undefined) ?? []) {
    if (!isObject(e) || typeof e.message !== 'string') return 'an error without a message';
    const type = isObject(e.extensions) ? e.extensions.type : undefined;
    if (typeof type !== 'string' || !ERROR_TYPES.has(type))
      return `GraphQL error without a known extensions.type: ${e.message}`;
  }
  return null;
}

/** The documented failures that are not ours: a provider (502), a capability turned off (503). */
function isDocumentedUpstream(answer: Answer): boolean {
  const expected = { 502: 'upstream_error', 503: 'unavailable_error' }[answer.status];
  if (!expected) return false;
  const body = parse(answer.text);
  return isObject(body) && body.type === expected;
}

/** What the answer breaks of the contract, or null. */
export function contractProblem(request: FuzzRequest, answer: Answer): string | null {
  if (answer.status >= 500 && !isDocumentedUpstream(answer)) return `HTTP ${answer.status}`;
  if (request.surface === 'rpc' && request.path === '/api/mcp') return rpcProblem(answer);
  if (request.surface === 'graphql') return graphQLProblem(answer);
  if (answer.status >= 400) {
    if (!answer.contentType.includes('json'))
      return `error answered as ${answer.contentType || 'no content type'}`;
    return envelopeProblem(parse(answer.text));
  }
  return null;
}
