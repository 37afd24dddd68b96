import type { Request, Response } from 'express';
import { Router } from 'express';
import type { AppServices } from '../schema/services.ts';
import type { ErrorType } from '../src/platform/errors.ts';
import {
  type ErrorSurface,
  type Metrics,
  metricsAccess,
  type RequestMetric,
} from '../src/platform/metrics/index.ts';

/** Where the app keeps its metrics for the error helpers that only see a response (`app.locals`). */
const METRICS_KEY = 'metrics';

export function attachMetrics(http: { locals: Record<string, unknown> }, metrics: Metrics): void {
  http.locals[METRICS_KEY] = metrics;
}

/** Marks the moment the request reached the app: every surface's latency is measured from here. */
export function markArrival(res: Response): void {
  res.locals.startedAt = performance.now();
}

/** Observes one answered request; `failed` when it answered an error. */
export function observeRequest(metric: RequestMetric, res: Response, failed = res.statusCode >= 400): void {
  const startedAt = res.locals.startedAt;
  metric.observe(typeof startedAt === 'number' ? startedAt : performance.now(), failed);
}

/** The surface a path belongs to, for errors answered outside the operation tables. */
function surfaceOf(url: string): ErrorSurface {
  if (url.startsWith('/v1')) return 'rest';
  if (url.startsWith('/graphql')) return 'graphql';
  if (url === '/api/mcp' || url.startsWith('/api/mcp?')) return 'agent_tool';
  if (url.startsWith('/api/mcp/')) return 'agent_http';
  return 'other';
}

/** Counts an error answered on a response (its surface read from the path). */
export function countError(res: Response, type: ErrorType, surface?: ErrorSurface): void {
  const metrics = res.app?.locals[METRICS_KEY] as Metrics | undefined;
  metrics?.countError(surface ?? surfaceOf(res.req?.originalUrl ?? ''), type);
}

/** GET /metrics in the Prometheus text format, behind the protection rule of docs/metrics.md. */
export function createMetricsRoute(app: AppServices): Router {
  const router = Router();
  router.get('/metrics', async (req: Request, res: Response, next) => {
    const access = metricsAccess(app.config, req.headers.authorization);
    if (access === 'not_found') {
      next();
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    if (access === 'unauthorized') {
      res.status(401).setHeader('WWW-Authenticate', 'Bearer realm="tributary-metrics"').json({
        type: 'authentication_error',
        code: 'invalid_token',
        message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.',
        requestId: res.locals.requestId,
      });
      return;
    }
    const { contentType, body } = await app.metrics.render();
    res.type(contentType).send(body);
  });
  return router;
}
