export { metricsAccess } from './access.ts';
export {
  type CacheStats,
  type ErrorSurface,
  MAX_GRAPHQL_OPERATION_NAMES,
  Metrics,
  type RequestMetric,
  UNKNOWN_OPERATION,
} from './metrics.ts';
