export { type MetricsAccess, metricsAccess } from './access.ts';
export {
  type CacheStats,
  type ErrorSurface,
  type GaugeReader,
  MAX_GRAPHQL_OPERATION_NAME_LENGTH,
  MAX_GRAPHQL_OPERATION_NAMES,
  Metrics,
  type RequestMetric,
  type Surface,
  UNKNOWN_OPERATION,
} from './metrics.ts';
