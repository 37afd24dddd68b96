import type { NextFunction, Request, Response } from 'express';
import {
  createJSONRPCErrorResponse,
  type JSONRPCRequest,
  type JSONRPCResponse,
  JSONRPCServer,
} from 'json-rpc-2.0';
import { authenticate, bearerToken } from '../../schema/context.ts';
import { AppError } from '../../src/platform/errors.ts';
import { allowedWithoutHeader, sendChallenge } from './auth.ts';
import {
  JSONRPC_INVALID_REQUEST,
  JSONRPC_PARSE_ERROR,
  JSONRPC_SERVER_ERROR,
  unexpectedError,
} from './errors.ts';
import { type AgentSurface, type CallParams, isObject, registerMethods } from './methods.ts';
import { isSupportedProtocolVersion, SUPPORTED_PROTOCOL_VERSIONS } from './protocol.ts';
import type { Principal } from './run.ts';

export function createRpcServer(surface: AgentSurface): JSONRPCServer<CallParams> {
  // The library logs every thrown error by default; ours are mapped (and unexpected ones logged) in
  // the middleware registerMethods installs.
  const server = new JSONRPCServer<CallParams>({ errorListener: () => {} });
  registerMethods(server, surface);
  return server;
}

const invalidRequest = (id: unknown, message = 'Invalid Request: expected a JSON-RPC 2.0 request object.') =>
  createJSONRPCErrorResponse(
    typeof id === 'string' || typeof id === 'number' ? id : null,
    JSONRPC_INVALID_REQUEST,
    message,
  );

/** A reply sent by the client (we never ask it anything): accepted like a notification. */
const isClientReply = (message: Record<string, unknown>) =>
  message.method === undefined && ('result' in message || 'error' in message);

async function answer(
  server: JSONRPCServer<CallParams>,
  message: unknown,
  call: CallParams,
): Promise<JSONRPCResponse | null> {
  if (!isObject(message)) return invalidRequest(null);
  if (isClientReply(message)) return null;
  return server.receive(message as unknown as JSONRPCRequest, call);
}

/** POST /api/mcp: one JSON-RPC message or a batch, answered as JSON (never an SSE stream). */
export function rpcHandler(surface: AgentSurface, server: JSONRPCServer<CallParams>) {
  const { app } = surface;
  return async (req: Request, res: Response): Promise<void> => {
    const requestId = String(res.locals.requestId ?? crypto.randomUUID());
    const body: unknown = req.body;
    try {
      const version = req.get('mcp-protocol-version');
      if (version !== undefined && !isSupportedProtocolVersion(version)) {
        res
          .status(400)
          .json(
            invalidRequest(
              isObject(body) ? body.id : null,
              `Unsupported MCP-Protocol-Version "${version}"; this server speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
            ),
          );
        return;
      }
      const isBatch = Array.isArray(body);
      const messages: unknown[] = isBatch ? body : [body];
      if (isBatch && messages.length === 0) {
        res.json(invalidRequest(null, 'Invalid Request: an empty batch.'));
        return;
      }

      let principal: Principal = null;
      const header = req.headers.authorization;
      if (header) {
        try {
          principal = await authenticate(app, bearerToken(header));
        } catch (error) {
          if (error instanceof AppError && error.type === 'authentication_error') {
            sendChallenge(res, app.config, messages, isBatch, error);
            return;
          }
          throw error;
        }
      } else if (!messages.every((message) => allowedWithoutHeader(message, surface.tools))) {
        sendChallenge(res, app.config, messages, isBatch, null);
        return;
      }

      const call: CallParams = { principal, requestId };
      // One after the other: a batch may save a draft and then submit it.
      const responses: JSONRPCResponse[] = [];
      for (const message of messages) {
        const response = await answer(server, message, call);
        if (response) responses.push(response);
      }
      if (responses.length === 0) {
        res.status(202).end();
        return;
      }
      res.json(isBatch ? responses : responses[0]);
    } catch (error) {
      app.logger.error({ err: error, requestId }, 'unexpected error in agent request');
      if (res.headersSent) return;
      const rpc = unexpectedError(requestId);
      res.status(500).json(createJSONRPCErrorResponse(null, rpc.code, rpc.message, rpc.data));
    }
  };
}

/** Bad JSON is a JSON-RPC parse error, not express's HTML 400. */
export function rpcBodyErrors(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const error = err as { type?: string; message?: string };
  if (error?.type === 'entity.parse.failed') {
    res.json(
      createJSONRPCErrorResponse(null, JSONRPC_PARSE_ERROR, 'Parse error: the body is not valid JSON.'),
    );
    return;
  }
  if (error?.type === 'entity.too.large') {
    res.status(413).json(
      createJSONRPCErrorResponse(null, JSONRPC_INVALID_REQUEST, 'The request body is larger than 6 MB.', {
        type: 'invalid_request_error',
        code: 'payload_too_large',
      }),
    );
    return;
  }
  if (error?.type === 'encoding.unsupported' || error?.type === 'charset.unsupported') {
    res.status(415).json(
      createJSONRPCErrorResponse(null, JSONRPC_INVALID_REQUEST, error.message ?? 'Unsupported encoding.', {
        type: 'invalid_request_error',
        code: 'unsupported_encoding',
      }),
    );
    return;
  }
  next(err);
}

/** GET (the SSE stream) and DELETE (session end) are not offered: the endpoint is stateless. */
export function methodNotAllowed(req: Request, res: Response): void {
  res.setHeader('Allow', 'POST');
  res
    .status(405)
    .json(
      createJSONRPCErrorResponse(
        null,
        JSONRPC_SERVER_ERROR,
        `${req.method} is not allowed on /api/mcp: send JSON-RPC messages with POST. The endpoint is ` +
          'stateless (no Mcp-Session-Id, no server-sent event stream).',
      ),
    );
}
