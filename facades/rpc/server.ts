import type { NextFunction, Request, Response } from 'express';
import {
  createJSONRPCErrorResponse,
  createJSONRPCSuccessResponse,
  type JSONRPCRequest,
  type JSONRPCResponse,
  JSONRPCServer,
} from 'json-rpc-2.0';
import { authenticate, bearerToken } from '../../schema/context.ts';
import { databaseUnavailable } from '../../src/platform/db/unavailable.ts';
import { AppError } from '../../src/platform/errors.ts';
import { clientInfo } from '../client-info.ts';
import { countError, observeRequest } from '../metrics.ts';
import type { Principal } from '../run-operation.ts';
import { sendJsonText } from '../send-json.ts';
import { transportError } from '../transport-errors.ts';
import { stringifyAnswer } from './answer-json.ts';
import { allowedWithoutHeader, answerEach, sendChallenge } from './auth.ts';
import {
  JSONRPC_INVALID_REQUEST,
  JSONRPC_PARSE_ERROR,
  JSONRPC_SERVER_ERROR,
  rpcErrorFromAppError,
  unexpectedError,
} from './errors.ts';
import {
  type AgentSurface,
  type CallParams,
  callTool,
  errorAnswer,
  isObject,
  registerMethods,
} from './methods.ts';
import { agentMetrics } from './metrics.ts';
import { isSupportedProtocolVersion, SUPPORTED_PROTOCOL_VERSIONS } from './protocol.ts';

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

/** JSON-RPC 2.0 §4: an id is a string, a number or null (an object, array or boolean is refused). */
const hasValidId = (message: Record<string, unknown>) =>
  !('id' in message) ||
  message.id === null ||
  typeof message.id === 'string' ||
  typeof message.id === 'number';

/** A well-formed `tools/call` request that expects an answer (its id a string or a number). */
const isToolCall = (message: Record<string, unknown>): message is { id: string | number; params: unknown } =>
  message.jsonrpc === '2.0' &&
  message.method === 'tools/call' &&
  message.result === undefined &&
  message.error === undefined &&
  (typeof message.id === 'string' || typeof message.id === 'number');

/**
 * `tools/call`, nearly every message an agent sends, goes straight to the tool, with the answer the
 * library's dispatch would give (its middleware and method wrappers cost a promise chain per call).
 */
async function answerToolCall(
  surface: AgentSurface,
  message: { id: string | number; params: unknown },
  call: CallParams,
): Promise<JSONRPCResponse | null> {
  try {
    return createJSONRPCSuccessResponse(message.id, await callTool(surface, message.params, call));
  } catch (error) {
    return errorAnswer(surface, { id: message.id, method: 'tools/call' }, call, error);
  }
}

/** The answer to one message of a request (null for a notification or a client's reply). */
export async function answerMessage(
  surface: AgentSurface,
  server: JSONRPCServer<CallParams>,
  message: unknown,
  call: CallParams,
): Promise<JSONRPCResponse | null> {
  if (!isObject(message)) return invalidRequest(null);
  if (!hasValidId(message)) {
    return invalidRequest(
      null,
      'Invalid Request: "id" must be a string, a number or null (JSON-RPC 2.0 §4).',
    );
  }
  if (isClientReply(message)) return null;
  if (isToolCall(message)) return answerToolCall(surface, message, call);
  return server.receive(message as unknown as JSONRPCRequest, call);
}

/** Every error answer names the request id that the response header and the log lines carry. */
function withRequestId(response: JSONRPCResponse, requestId: string): JSONRPCResponse {
  if (!response.error) return response;
  const data = isObject(response.error.data) ? response.error.data : {};
  if (data.requestId) return response;
  return { ...response, error: { ...response.error, data: { ...data, requestId } } };
}

/** POST /api/mcp: one JSON-RPC message or a batch, answered as JSON (never an SSE stream). */
export function rpcHandler(surface: AgentSurface, server: JSONRPCServer<CallParams>) {
  const { app } = surface;
  const measure = agentMetrics(surface);
  return async (req: Request, res: Response): Promise<void> => {
    const requestId = String(res.locals.requestId ?? crypto.randomUUID());
    const body: unknown = req.body;
    // Answers given before any message runs (protocol version, token) count under the first message.
    const first = measure.operationOf(Array.isArray(body) ? body[0] : body);
    try {
      const version = req.get('mcp-protocol-version');
      if (version !== undefined && !isSupportedProtocolVersion(version)) {
        countError(res, 'invalid_request_error', 'agent_tool');
        observeRequest(first, res, true);
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
        countError(res, 'invalid_request_error', 'agent_tool');
        res.json(invalidRequest(null, 'Invalid Request: an empty batch.'));
        observeRequest(first, res, true);
        return;
      }

      let principal: Principal = null;
      const header = req.headers.authorization;
      if (header) {
        try {
          principal = await authenticate(app, bearerToken(header));
        } catch (error) {
          if (error instanceof AppError && error.type === 'authentication_error') {
            countError(res, 'authentication_error', 'agent_tool');
            sendChallenge(res, app.config, messages, isBatch, error);
            observeRequest(first, res, true);
            return;
          }
          const unavailable = databaseUnavailable(error);
          if (!unavailable) throw error;
          // No message was dispatched: the transport answers 503, as it answers 401 for a bad token.
          countError(res, 'unavailable_error', 'agent_tool');
          res.setHeader('Retry-After', String(unavailable.retryAfterSeconds));
          res.status(503).json(answerEach(messages, isBatch, rpcErrorFromAppError(unavailable, requestId)));
          observeRequest(first, res, true);
          return;
        }
      } else if (!messages.every((message) => allowedWithoutHeader(message, surface.tools))) {
        countError(res, 'authentication_error', 'agent_tool');
        sendChallenge(res, app.config, messages, isBatch, null);
        observeRequest(first, res, true);
        return;
      }

      const call: CallParams = { principal, requestId, client: clientInfo(req) };
      // One after the other: a batch may save a draft and then submit it.
      const responses: JSONRPCResponse[] = [];
      for (let i = 0; i < messages.length; i++) {
        const message = messages[i];
        // Each message of a batch is timed on its own; a single one from the request's arrival.
        const startedAt = i === 0 ? (res.locals.startedAt as number | undefined) : performance.now();
        const response = await answerMessage(surface, server, message, call);
        const failed = measure.countAnswer(response);
        measure.operationOf(message).observe(startedAt ?? performance.now(), failed);
        if (response) responses.push(withRequestId(response, requestId));
      }
      if (responses.length === 0) {
        res.status(202).end();
        return;
      }
      sendJsonText(res, 200, stringifyAnswer(isBatch ? responses : (responses[0] as JSONRPCResponse)));
    } catch (error) {
      app.logger.error({ err: error, requestId }, 'unexpected error in agent request');
      if (res.headersSent) return;
      countError(res, 'api_error', 'agent_tool');
      const rpc = unexpectedError(requestId);
      res.status(500).json(createJSONRPCErrorResponse(null, rpc.code, rpc.message, rpc.data));
    }
  };
}

/**
 * A body that cannot be read (bad JSON, bad compression, unknown charset, too deep, too large) is a
 * JSON-RPC error, not express's HTML 400: bad JSON is -32700 as JSON-RPC says (HTTP 200, like any
 * answered message); the other transport failures are -32600 with HTTP 400 (413 when too large).
 */
export function rpcBodyErrors(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const error = transportError(err, '/api/mcp');
  if (!error) {
    next(err);
    return;
  }
  const data = {
    type: error.type,
    code: error.code,
    requestId: String(res.locals.requestId ?? ''),
  };
  countError(res, error.type, 'agent_tool');
  if (error.code === 'invalid_json') {
    res.json(
      createJSONRPCErrorResponse(null, JSONRPC_PARSE_ERROR, 'Parse error: the body is not valid JSON.', data),
    );
    return;
  }
  const status = error.code === 'payload_too_large' ? 413 : 400;
  res.status(status).json(createJSONRPCErrorResponse(null, JSONRPC_INVALID_REQUEST, error.message, data));
}

/** The JSON-RPC endpoint itself; everything below it is the agent's plain HTTP routes. */
const RPC_PATH = '/api/mcp';

/**
 * GET (the SSE stream) and DELETE (session end) are not offered: the endpoint is stateless. That is a
 * JSON-RPC answer on /api/mcp itself only. /api/mcp/ and other paths that reach the endpoint's router
 * (where a client lands that resolves the dot-segment of /api/mcp/release-jobs/%2e%2e) get the REST
 * envelope, as every HTTP route under /api/mcp/ does.
 */
export function methodNotAllowed(req: Request, res: Response): void {
  res.setHeader('Allow', 'POST');
  const path = req.originalUrl.split('?')[0] ?? '';
  if (path !== RPC_PATH) {
    countError(res, 'invalid_request_error');
    const requestId = res.locals.requestId as string | undefined;
    res.status(405).json({
      type: 'invalid_request_error',
      code: 'method_not_allowed',
      message:
        `${req.method} is not allowed on ${path}: JSON-RPC messages go to POST ${RPC_PATH}, and the agent's ` +
        `HTTP endpoints are paths below it (GET ${RPC_PATH}/release-jobs/{id}, …).`,
      ...(requestId ? { requestId } : {}),
    });
    return;
  }
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
