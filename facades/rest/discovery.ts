import { type Request, type Response, Router } from 'express';
import type { AppServices } from '../../schema/services.ts';
import { baseUrl } from '../../src/platform/config.ts';
import { pageHeaders } from '../security-headers.ts';
import { DISCOVERY_OPERATIONS } from './openapi/discovery-operations.ts';
import { API_DESCRIPTION, API_TITLE, API_VERSION, buildOpenApiDocument } from './openapi/document.ts';
import { renderApiReference } from './openapi/html.ts';
import { toOpenApiPath } from './openapi/paths.ts';
import { TOKEN_ENDPOINT } from './openapi/token-endpoint.ts';
import type { OpenApiDocument } from './openapi/types.ts';
import type { RestRoute } from './route.ts';
import { restRoutes } from './routes/index.ts';

export interface ApiIndexEndpoint {
  method: RestRoute['method'];
  /** The full path, `/v1` included, with `{name}` placeholders. */
  path: string;
  summary: string;
  auth: RestRoute['auth'];
}

export interface ApiIndex {
  name: string;
  version: string;
  description: string;
  links: { openapi: string; docs: string; graphql: string; mcp: string; status: string };
  endpoints: ApiIndexEndpoint[];
}

/** GET /v1/: what the API is, where its descriptions live, and every endpoint of the route table. */
export function apiIndex(routes: readonly RestRoute[], publicUrl: string): ApiIndex {
  const base = `${publicUrl}/v1`;
  const endpoints: ApiIndexEndpoint[] = [
    ...DISCOVERY_OPERATIONS.map((op) => ({
      method: op.method,
      path: `/v1${op.path}`,
      summary: op.summary,
      auth: op.auth,
    })),
    ...routes.map((route) => ({
      method: route.method,
      path: `/v1${toOpenApiPath(route.path)}`,
      summary: route.summary,
      auth: route.auth,
    })),
    {
      method: TOKEN_ENDPOINT.method,
      path: `/v1${TOKEN_ENDPOINT.path}`,
      summary: TOKEN_ENDPOINT.summary,
      auth: TOKEN_ENDPOINT.auth,
    },
  ];
  return {
    name: API_TITLE,
    version: API_VERSION,
    description: API_DESCRIPTION,
    links: {
      openapi: `${base}/openapi.json`,
      docs: `${base}/docs`,
      graphql: `${publicUrl}/graphql`,
      mcp: `${publicUrl}/api/mcp`,
      status: `${base}/status`,
    },
    endpoints,
  };
}

function methodNotAllowed(req: Request, res: Response): void {
  res.setHeader('Allow', 'GET, HEAD');
  res.status(405).json({
    type: 'invalid_request_error',
    code: 'method_not_allowed',
    message: `${req.method} is not allowed on /v1${req.path}; use GET.`,
  });
}

/**
 * GET /v1/, /v1/openapi.json and /v1/docs. The document and the HTML page are built on first use and
 * kept while PUBLIC_URL stays the same (tests learn their port only after start-up).
 */
export function createDiscoveryRoutes(app: AppServices, routes: readonly RestRoute[] = restRoutes): Router {
  const router = Router();
  let cache: { serverUrl: string; document: OpenApiDocument; html?: string; index: ApiIndex } | undefined;
  const current = () => {
    const serverUrl = baseUrl(app.config);
    if (cache?.serverUrl !== serverUrl) {
      cache = {
        serverUrl,
        document: buildOpenApiDocument(routes, { serverUrl }),
        index: apiIndex(routes, app.config.PUBLIC_URL),
      };
    }
    return cache;
  };

  router
    .route('/')
    .get((_req, res) => {
      res.json(current().index);
    })
    .all(methodNotAllowed);
  router
    .route('/openapi.json')
    .get((_req, res) => {
      res.json(current().document);
    })
    .all(methodNotAllowed);
  router
    .route('/docs')
    .get((_req, res) => {
      const entry = current();
      entry.html ??= renderApiReference(entry.document);
      // The reference styles itself inline; nothing else runs or loads.
      res.set(
        pageHeaders("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'"),
      );
      res.type('html').send(entry.html);
    })
    .all(methodNotAllowed);
  return router;
}
