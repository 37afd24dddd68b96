import { createHash, timingSafeEqual } from 'node:crypto';

/** What GET /metrics answers: the metrics, 401 (a token is set and this is not it), or 404. */
export type MetricsAccess = 'allowed' | 'unauthorized' | 'not_found';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The protection rule of /metrics. With METRICS_TOKEN set, only `Authorization: Bearer <it>` reads
 * the metrics (compared in constant time, over digests so the length leaks nothing either). Without
 * it, production answers 404 (off, like any unknown path) and other environments answer openly.
 */
export function metricsAccess(
  config: { NODE_ENV: string; METRICS_TOKEN?: string | undefined },
  authorization: string | undefined,
): MetricsAccess {
  if (!config.METRICS_TOKEN) return config.NODE_ENV === 'production' ? 'not_found' : 'allowed';
  const match = /^Bearer (\S+)$/i.exec(authorization ?? '');
  const sent = match?.[1] ?? '';
  return timingSafeEqual(digest(sent), digest(config.METRICS_TOKEN)) && sent !== ''
    ? 'allowed'
    : 'unauthorized';
}
