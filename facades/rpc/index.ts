import { Router } from 'express';
import type { AppServices } from '../../schema/services.ts';
import { compileRoutes, createRestRouter } from '../rest/router.ts';
import { jsonBody } from '../transport-errors.ts';
import { createDocsRouter } from './docs.ts';
import { agentHttpRoutes } from './http-routes.ts';
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

/** The agent surface: JSON-RPC 2.0 (MCP) at POST /api/mcp and its HTTP helpers under /api/mcp/*. */
export function createAgentApi(app: AppServices, options: AgentApiOptions = {}): Router {
  const surface = {
    app,
    tools: compileTools(options.tools ?? agentTools, options.aliases ?? documentedAliases),
    resources: compileResources(options.resources ?? agentResources),
  };
  const server = createRpcServer(surface);

  const router = Router();
  // Any content type is read as JSON, and any JSON value is accepted so that a non-object gets -32600.
  // Body failures here are JSON-RPC errors; those of the HTTP routes under /api/mcp/* fall through to
  // the REST envelope like every other HTTP route.
  router.post(
    '/',
    jsonBody({ limit: '6mb', strict: false, type: () => true }),
    rpcHandler(surface, server),
    rpcBodyErrors,
  );
  router.all('/', methodNotAllowed);
  router.use(createDocsRouter(app));
  router.use(jsonBody({ limit: '6mb' }), createRestRouter(app, compileRoutes(agentHttpRoutes), 'agent_http'));
  return router;
}
