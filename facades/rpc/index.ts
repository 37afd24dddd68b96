import { Router } from 'express';
import type { AppServices } from '../../schema/services.ts';
import { compileRoutes, createRestRouter, routeHandlers } from '../rest/router.ts';
import type { RouteTable } from '../route-table.ts';
import { jsonBody } from '../transport-errors.ts';
import { createDocsRouter } from './docs.ts';
import { agentHttpRoutes } from './http-routes.ts';
import { originGuard } from './origin-guard.ts';
import { compileTools } from './registry.ts';
import { agentResources, compileResources, type ResourceRow } from './resources.ts';
import { createRpcServer, methodNotAllowed, rpcBodyErrors, rpcHandler } from './server.ts';
import type { ToolRow } from './tool.ts';
import { agentTools, documentedAliases } from './tools/index.ts';

export interface AgentApiOptions {
  tools?: ToolRow[];
  resources?: ResourceRow[];
  aliases?: Record<string, string[]>;
}

/** Where the agent surface is mounted. */
export const AGENT_MOUNT = '/api/mcp';

/**
 * The agent surface: JSON-RPC 2.0 (MCP) at POST /api/mcp and its HTTP helpers under /api/mcp/*. With a
 * RouteTable, those rows are also entered there, behind the same origin guard.
 */
export function createAgentApi(app: AppServices, options: AgentApiOptions = {}, table?: RouteTable): Router {
  const surface = {
    app,
    tools: compileTools(options.tools ?? agentTools, options.aliases ?? documentedAliases),
    resources: compileResources(options.resources ?? agentResources),
  };
  const server = createRpcServer(surface);

  const guard = originGuard(app.config);
  // Any content type is read as JSON, and any JSON value is accepted so that a non-object gets -32600.
  // Body failures here are JSON-RPC errors; those of the HTTP routes under /api/mcp/* fall through to
  // the REST envelope like every other HTTP route.
  const rpc = [jsonBody({ limit: '6mb', strict: false, type: () => true }), rpcHandler(surface, server)];
  table?.add({
    method: 'POST',
    mount: AGENT_MOUNT,
    path: '/',
    handlers: [guard, ...rpc],
    errorHandlers: [rpcBodyErrors],
  });
  const parseJson = jsonBody({ limit: '6mb' });
  const handlers = routeHandlers(app, compileRoutes(agentHttpRoutes), 'agent_http');
  for (const { route, handler } of handlers) {
    table?.add({
      method: route.method,
      mount: AGENT_MOUNT,
      path: route.path,
      handlers: [guard, parseJson, handler],
    });
  }

  // Express serves the same routes behind the app's own origin guard (which covers the uploads too).
  const router = Router();
  router.post('/', ...rpc, rpcBodyErrors);
  router.all('/', methodNotAllowed);
  router.use(createDocsRouter(app));
  router.use(parseJson, createRestRouter(handlers));
  return router;
}
