import { type Request, type RequestHandler, type Response, Router } from 'express';
import { authenticate, bearerToken, type Channel } from '../../schema/context.ts';
import { type PreparedOperation, prepareOperation } from '../../schema/execute.ts';
import type { AppServices } from '../../schema/services.ts';
import { AppError, invalidRequest } from '../../src/platform/errors.ts';
import { clientInfo } from '../client-info.ts';
import { routeHandler } from '../route-handler.ts';
import { type OperationError, runAndSelect } from '../run-operation.ts';
import { sendJson } from '../send-json.ts';
import { envelopeFrom, sendError } from './errors.ts';
import type { RestRoute, VariableSource } from './route.ts';

interface CompiledRoute {
  route: RestRoute;
  operation: PreparedOperation;
  /** GraphQL variable name → REST field name, to report error paths in the client's terms. */
  restNames: Map<string, string>;
}

export function compileRoutes(routes: RestRoute[]): CompiledRoute[] {
  return routes.map((route) => ({
    route,
    operation: prepareOperation(route.document),
    restNames: new Map(
      Object.entries(route.variables ?? {}).map(([variable, source]) => [variable, source.name]),
    ),
  }));
}

function readSource(req: Request, source: VariableSource): unknown {
  switch (source.from) {
    case 'query':
      return req.query[source.name];
    case 'path':
      return req.params[source.name];
    case 'body':
      return (req.body as Record<string, unknown> | undefined)?.[source.name];
    case 'header':
      return req.get(source.name);
  }
}

const carriesBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** A body the JSON parser left alone (another content type): say what the route takes, and where else to go. */
function unreadableBody(req: Request) {
  const type = (req.get('content-type') ?? '').split(';')[0]!.trim() || 'none';
  const where = `${req.method} ${req.baseUrl}${req.path}`;
  const multipartHint =
    type === 'multipart/form-data'
      ? ' Multipart file uploads go to POST /api/mcp/upload (fields `file` and `type`); files of any size to an upload session (POST /v1/uploads).'
      : '';
  return new AppError(
    'invalid_request_error',
    'unsupported_media_type',
    `${where} takes a JSON body (Content-Type: application/json), not ${type}.${multipartHint}`,
  );
}

/** The operation's variables, read from the request where the route says each one comes from. */
export function variablesFor(req: Request, route: RestRoute): Record<string, unknown> {
  const readsBody = takesBody(route);
  const body: unknown = req.body;
  if (readsBody && body === undefined && carriesBody(req)) throw unreadableBody(req);
  if (readsBody && body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw invalidRequest(
      `The request body must be a JSON object, not ${Array.isArray(body) ? 'an array' : typeof body}.`,
      undefined,
      'invalid_body',
    );
  }
  const variables: Record<string, unknown> = {};
  for (const [variable, source] of Object.entries(route.variables ?? {})) {
    const raw = readSource(req, source);
    if (raw === undefined) continue;
    variables[variable] = source.parse ? source.parse(raw, source.name) : raw;
  }
  return variables;
}

/** `trackPatches[0].title` → `track_patches[0].title`: the variable becomes the client's field name. */
function renamePath(path: string, restNames: Map<string, string>): string {
  const head = /^[^.[]+/.exec(path)?.[0] ?? '';
  return `${restNames.get(head) ?? head}${path.slice(head.length)}`;
}

const VARIABLE_ERROR = /^Variable "\$(\w+)"/;

/**
 * The error in the REST client's terms: detail paths and GraphQL variable errors ("Variable "$fileSize"
 * of required type …") name the body, query or path field the client sent.
 */
function restEnvelope(error: OperationError, restNames: Map<string, string>) {
  const { extensions } = error;
  const variable = VARIABLE_ERROR.exec(error.message)?.[1];
  if (variable && extensions.type === 'invalid_request_error') {
    const field = restNames.get(variable) ?? variable;
    const message = error.message
      .replace(VARIABLE_ERROR, `Field "${field}"`)
      .replace(/ of required type "[^"]+" was not provided\./, ' is required.')
      .replace(/ of (?:non-null )?type "[^"]+"/, '');
    return envelopeFrom(message, {
      ...extensions,
      code: 'invalid_field',
      details: [{ path: field, message }],
    });
  }
  if (extensions.details) {
    extensions.details = extensions.details.map((d) => ({ ...d, path: renamePath(d.path, restNames) }));
  }
  return envelopeFrom(error.message, extensions);
}

/** A route of the table with its express handler: authenticate, run the GraphQL operation, answer. */
export interface RouteWithHandler {
  route: RestRoute;
  handler: RequestHandler;
}

export function routeHandlers(
  app: AppServices,
  compiled: CompiledRoute[],
  channel: Extract<Channel, 'rest' | 'agent_http'> = 'rest',
): RouteWithHandler[] {
  return compiled.map((entry) => {
    const { route } = entry;
    const handler = routeHandler(
      async (req: Request, res: Response) => {
        const requestId = String(res.locals.requestId ?? crypto.randomUUID());
        const principal = await authenticate(app, bearerToken(req.headers.authorization));
        const variables = variablesFor(req, route);
        const outcome = await runAndSelect(app, entry.operation, route.select, {
          principal,
          channel,
          variables,
          requestId,
          client: clientInfo(req),
        });
        if ('error' in outcome) {
          sendError(res, restEnvelope(outcome.error, entry.restNames));
          return;
        }
        const body = outcome.value;
        if (route.render?.(body, req, res)) return;
        sendJson(res, route.status ?? 200, body);
      },
      app.metrics.request(channel, route.operationId),
    );
    return { route, handler };
  });
}

/** An express router over the table's handlers (the requests the route table leaves to express). */
export function createRestRouter(handlers: RouteWithHandler[]): Router {
  const router = Router();
  for (const { route, handler } of handlers) {
    router[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](route.path, handler);
  }
  return router;
}

/** Whether the route reads a body (the JSON parser runs before it). */
export const takesBody = (route: RestRoute): boolean =>
  Object.values(route.variables ?? {}).some((source) => source.from === 'body');
