import {
  createJSONRPCErrorResponse,
  JSONRPCErrorException,
  type JSONRPCID,
  type JSONRPCResponse,
  type JSONRPCServer,
} from 'json-rpc-2.0';
import type { z } from 'zod';
import { authenticate, type ClientInfo } from '../../schema/context.ts';
import type { AppServices } from '../../schema/services.ts';
import { type Principal, runAndSelect } from '../run-operation.ts';
import { toolCallResult } from './answer-json.ts';
import {
  invalidParams,
  JSONRPC_INVALID_PARAMS,
  JSONRPC_METHOD_NOT_FOUND,
  rpcErrorFrom,
  rpcErrorFromThrown,
  toException,
  unexpectedError,
} from './errors.ts';
import {
  INSTRUCTIONS,
  negotiateProtocolVersion,
  SERVER_CAPABILITIES,
  SERVER_NAME,
  SERVER_TITLE,
} from './protocol.ts';
import type { ToolRegistry } from './registry.ts';
import type { ResourceRegistry } from './resources.ts';
import { MAX_NAME_LENGTH } from './suggest.ts';

/** Per HTTP request: who calls (from the Authorization header) and the request id for logs and errors. */
export interface CallParams {
  principal: Principal;
  requestId: string;
  client?: ClientInfo;
}

export interface AgentSurface {
  app: AppServices;
  tools: ToolRegistry;
  resources: ResourceRegistry;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** zod paths in the caller's terms: `tracks[0].writers[0].name`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function issueDetails(issues: z.core.$ZodIssue[]): { path: string; message: string }[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: 'unknown argument' }))
      : [{ path: formatPath(issue.path), message: issue.message }],
  );
}

export async function callTool(surface: AgentSurface, params: unknown, call: CallParams) {
  if (!isObject(params) || typeof params.name !== 'string') {
    throw invalidParams('tools/call needs params.name (a tool name) and params.arguments (an object).', [
      { path: 'name', message: 'required string' },
    ]);
  }
  const tool = surface.tools.resolve(params.name);
  if (!tool) {
    const suggestions = surface.tools.suggest(params.name);
    const didYouMean =
      suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?` : '';
    throw new JSONRPCErrorException(
      `Unknown tool "${params.name.slice(0, MAX_NAME_LENGTH)}".${didYouMean} Call tools/list for the full list.`,
      JSONRPC_INVALID_PARAMS,
      { type: 'invalid_request_error', code: 'unknown_tool', suggestions, hint: 'tools/list' },
    );
  }
  const raw = params.arguments ?? {};
  if (!isObject(raw)) {
    throw invalidParams('params.arguments must be an object.', [
      { path: 'arguments', message: 'expected an object' },
    ]);
  }
  const { access_token: accessToken, ...args } = raw;
  if (accessToken !== undefined && (typeof accessToken !== 'string' || accessToken === '')) {
    throw invalidParams('access_token must be a non-empty string.', [
      { path: 'access_token', message: 'expected a non-empty string' },
    ]);
  }
  // The Authorization header wins; the argument is for clients that cannot set headers.
  const principal =
    call.principal ?? (typeof accessToken === 'string' ? await authenticate(surface.app, accessToken) : null);

  const parsed = tool.validator.safeParse(args);
  if (!parsed.success) {
    const details = issueDetails(parsed.error.issues);
    const first = details[0];
    throw invalidParams(
      `Invalid arguments for ${tool.row.name}${first ? `: ${first.path || 'arguments'}: ${first.message}` : ''}.`,
      details,
      { tool: tool.row.name, hint: 'tools/list gives every tool’s inputSchema.' },
    );
  }
  const outcome = await runAndSelect(surface.app, tool.operation, tool.row.select, {
    principal,
    channel: 'agent_tool',
    variables: tool.row.variables?.(parsed.data) ?? {},
    requestId: call.requestId,
    client: call.client,
  });
  if ('error' in outcome) throw toException(rpcErrorFrom(outcome.error.message, outcome.error.extensions));
  return toolCallResult(outcome.value);
}

async function readResource(surface: AgentSurface, params: unknown, call: CallParams) {
  if (!isObject(params) || typeof params.uri !== 'string') {
    throw invalidParams('resources/read needs params.uri.', [{ path: 'uri', message: 'required string' }]);
  }
  const resource = surface.resources.resolve(params.uri);
  if (!resource) {
    const error = rpcErrorFrom(
      `Unknown resource "${params.uri.slice(0, 200)}". Call resources/list for the list.`,
      {
        type: 'not_found_error',
        code: 'resource_not_found',
      },
    );
    error.data.hint = 'resources/list';
    error.data.resources = surface.resources.resources.map((r) => r.row.uri);
    throw toException(error);
  }
  const outcome = await runAndSelect(surface.app, resource.operation, resource.row.select, {
    principal: call.principal,
    channel: 'agent_tool',
    requestId: call.requestId,
  });
  if ('error' in outcome) throw toException(rpcErrorFrom(outcome.error.message, outcome.error.extensions));
  return {
    contents: [
      { uri: resource.row.uri, mimeType: resource.row.mimeType, text: resource.row.render(outcome.value) },
    ],
  };
}

export const SUPPORTED_METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
];

/** The MCP methods over json-rpc-2.0. Errors of any method end as JSON-RPC errors (see errors.ts). */
export function registerMethods(server: JSONRPCServer<CallParams>, surface: AgentSurface): void {
  server.addMethod('initialize', (params: unknown) => ({
    protocolVersion: negotiateProtocolVersion(isObject(params) ? params.protocolVersion : undefined),
    capabilities: SERVER_CAPABILITIES,
    serverInfo: { name: SERVER_NAME, title: SERVER_TITLE, version: surface.app.version },
    instructions: INSTRUCTIONS,
  }));
  server.addMethod('ping', () => ({}));
  server.addMethod('tools/list', () => ({ tools: surface.tools.descriptors }));
  server.addMethod('tools/call', (params: unknown, call: CallParams) => callTool(surface, params, call));
  server.addMethod('resources/list', () => ({ resources: surface.resources.descriptors }));
  server.addMethod('resources/templates/list', () => ({ resourceTemplates: [] }));
  server.addMethod('resources/read', (params: unknown, call: CallParams) =>
    readResource(surface, params, call),
  );

  // Notifications (no id) to any method, known or not, are accepted silently.
  server.handleMethodNotFound = async (request) =>
    request.id === undefined
      ? null
      : createJSONRPCErrorResponse(
          request.id,
          JSONRPC_METHOD_NOT_FOUND,
          `Method "${request.method}" not found. This server answers ${SUPPORTED_METHODS.join(', ')}.`,
          { type: 'invalid_request_error', code: 'method_not_found', methods: SUPPORTED_METHODS },
        );

  server.applyMiddleware(async (next, request, call) => {
    try {
      return await next(request, call);
    } catch (error) {
      return errorAnswer(surface, request, call, error);
    }
  });
}

/**
 * The answer to a method that threw: our errors mapped to their JSON-RPC codes, anything else logged
 * and answered as an unexpected error; a notification (no id) gets none.
 */
export function errorAnswer(
  surface: AgentSurface,
  request: { id?: JSONRPCID | undefined; method: string },
  call: CallParams,
  error: unknown,
): JSONRPCResponse | null {
  let rpc = rpcErrorFromThrown(error, call.requestId);
  if (!rpc) {
    surface.app.logger.error(
      { err: error, requestId: call.requestId, method: request.method },
      'unexpected error in agent call',
    );
    rpc = unexpectedError(call.requestId);
  }
  if (request.id === undefined) return null;
  return createJSONRPCErrorResponse(request.id, rpc.code, rpc.message, rpc.data);
}
