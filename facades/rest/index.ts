import { type Request, type Response, Router } from 'express';
import { match } from 'path-to-regexp';
import type { AppServices } from '../../schema/services.ts';
import { UNKNOWN_OPERATION } from '../../src/platform/metrics/index.ts';
import { countError, observeRequest } from '../metrics.ts';
import type { RouteTable } from '../route-table.ts';
import { jsonBody } from '../transport-errors.ts';
import { createDiscoveryRoutes } from './discovery.ts';
import { sendError } from './errors.ts';
import type { RestRoute } from './route.ts';
import { compileRoutes, createRestRouter, routeHandlers } from './router.ts';
import { restRoutes } from './routes/index.ts';

/** Where the REST surface is mounted. */
export const REST_MOUNT = '/v1';

/**
 * The /v1 surface: the route table, plus answers for unknown paths and wrong methods in the envelope.
 * With a RouteTable, its rows are also entered there (the same handlers, looked up ahead of express).
 */
export function createRestApi(
  app: AppServices,
  routes: RestRoute[] = restRoutes,
  table?: RouteTable,
): Router {
  const parseJson = jsonBody({ limit: '6mb' });
  const handlers = routeHandlers(app, compileRoutes(routes));
  for (const { route, handler } of handlers) {
    table?.add({ method: route.method, mount: REST_MOUNT, path: route.path, handlers: [parseJson, handler] });
  }
  const api = Router();
  api.use(parseJson);
  api.use(createRestRouter(handlers));
  api.use(createDiscoveryRoutes(app, routes));

  const matchers = routes.map((route) => ({ method: route.method, test: match(route.path) }));
  const unknownRoute = app.metrics.request('rest', UNKNOWN_OPERATION);
  api.use((req: Request, res: Response) => {
    const allowed = matchers.filter((m) => m.test(req.path)).map((m) => m.method);
    if (allowed.length > 0) {
      res.setHeader('Allow', [...new Set(allowed)].join(', '));
      countError(res, 'invalid_request_error');
      res.status(405).json({
        type: 'invalid_request_error',
        code: 'method_not_allowed',
        message: `${req.method} is not allowed on /v1${req.path}; use ${[...new Set(allowed)].join(' or ')}.`,
      });
    } else {
      sendError(res, {
        type: 'not_found_error',
        code: 'route_not_found',
        message: `No endpoint at ${req.method} /v1${req.path}.`,
      });
    }
    observeRequest(unknownRoute, res, true);
  });
  return api;
}
