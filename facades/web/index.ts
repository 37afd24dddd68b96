import { type Request, type Response, Router } from 'express';
import type { AppServices } from '../../schema/services.ts';
import { agentResources, type ResourceRow } from '../rpc/resources.ts';
import type { ToolRow } from '../rpc/tool.ts';
import { agentTools } from '../rpc/tools/index.ts';
import { protectedResourceMetadata, serverCard } from './well-known.ts';

export interface WebRoutesOptions {
  tools?: ToolRow[];
  resources?: ResourceRow[];
}

/** Public web documents: /.well-known/* discovery documents and pages. */
export function createWebRoutes(app: AppServices, options: WebRoutesOptions = {}): Router {
  const router = Router();
  const tools = options.tools ?? agentTools;
  const resources = options.resources ?? agentResources;

  // PUBLIC_URL is read per request: the documents name the URL the service is reached at.
  const protectedResource = (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(protectedResourceMetadata(app.config));
  };
  router.get('/.well-known/oauth-protected-resource', protectedResource);
  router.get('/.well-known/oauth-protected-resource/api/mcp', protectedResource);

  router.get('/.well-known/mcp/server-card.json', (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(serverCard(app.config, app.version, tools, resources));
  });
  return router;
}
