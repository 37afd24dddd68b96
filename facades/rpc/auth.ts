import type { Response } from 'express';
import type { JSONRPCID } from 'json-rpc-2.0';
import { OAUTH_SCOPE } from '../../schema/oauth/authorization.ts';
import type { AppConfig } from '../../src/platform/config.ts';
import type { AppError } from '../../src/platform/errors.ts';
import { type RpcErrorObject, rpcErrorFrom, rpcErrorFromAppError } from './errors.ts';
import { isObject } from './methods.ts';
import { resourceMetadataUrl } from './protocol.ts';
import type { ToolRegistry } from './registry.ts';

/**
 * What may run without an Authorization header: notifications (and replies from the client), `ping`,
 * and `tools/call` that brings its own `access_token` or names a public tool. Malformed messages pass
 * too: they are answered with -32600 and touch nothing.
 */
export function allowedWithoutHeader(message: unknown, tools: ToolRegistry): boolean {
  if (!isObject(message) || typeof message.method !== 'string') return true;
  if (message.id === undefined) return true;
  if (message.method === 'ping') return true;
  if (message.method === 'tools/call' && isObject(message.params)) {
    const args = message.params.arguments;
    if (isObject(args) && typeof args.access_token === 'string' && args.access_token !== '') return true;
    const name = message.params.name;
    if (typeof name === 'string' && tools.resolve(name)?.row.public) return true;
  }
  return false;
}

function idOf(message: unknown): JSONRPCID | undefined {
  if (!isObject(message)) return undefined;
  const id = message.id;
  return typeof id === 'string' || typeof id === 'number' || id === null ? id : undefined;
}

const quoted = (text: string) => text.replace(/["\\]/g, '');

/**
 * The 401 an MCP client starts its OAuth discovery from: `WWW-Authenticate` points at the protected
 * resource metadata (RFC 9728); the body answers every request of the message with a JSON-RPC 401.
 */
export function sendChallenge(
  res: Response,
  config: Pick<AppConfig, 'PUBLIC_URL'>,
  messages: unknown[],
  isBatch: boolean,
  invalid: AppError | null,
): void {
  let header = `Bearer resource_metadata="${resourceMetadataUrl(config)}", scope="${OAUTH_SCOPE}"`;
  if (invalid) header += `, error="invalid_token", error_description="${quoted(invalid.message)}"`;
  res.setHeader('WWW-Authenticate', header);

  const error = invalid
    ? rpcErrorFromAppError(invalid)
    : rpcErrorFrom(
        'A bearer token with scope svc:mcp is required: send Authorization: Bearer <token>, or pass ' +
          'access_token as a tools/call argument.',
        { type: 'authentication_error', code: 'missing_token' },
      );
  res.status(401).json(answerEach(messages, isBatch, error));
}

/** The same error answered to every message of a request (one answer for a single message). */
export function answerEach(messages: unknown[], isBatch: boolean, error: RpcErrorObject): unknown {
  const answer = (id: JSONRPCID) => ({ jsonrpc: '2.0', id, error });
  const ids = messages.map(idOf).filter((id): id is JSONRPCID => id !== undefined);
  return isBatch && ids.length > 0 ? ids.map(answer) : answer(ids[0] ?? null);
}
