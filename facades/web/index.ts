import { type Request, type Response, Router } from 'express';
import type { AppServices } from '../../schema/services.ts';
import { agentResources, type ResourceRow } from '../rpc/resources.ts';
import type { ToolRow } from '../rpc/tool.ts';
import { agentTools } from '../rpc/tools/index.ts';
import { STYLESHEET_PATH } from './pages/layout.ts';
import { STYLESHEET } from './pages/stylesheet.ts';
import { apiCatalog, protectedResourceMetadata, serverCard } from './well-known.ts';

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
  router.get('/.well-known/api-catalog', (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader(
      'Content-Type',
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    res.send(JSON.stringify(apiCatalog(app.config)));
  });
  router.head('/.well-known/api-catalog', (_req: Request, res: Response) => {
    res.setHeader('Link', `<${app.config.PUBLIC_URL}/.well-known/api-catalog>; rel="api-catalog"`);
    res.status(200).end();
  });

  router.get(STYLESHEET_PATH, (_req: Request, res: Response) => {
    res.setHeader('Content-Type', 'text/css; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.send(STYLESHEET);
  });
  return router;
}
