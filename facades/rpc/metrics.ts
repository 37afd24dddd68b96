import type { JSONRPCResponse } from 'json-rpc-2.0';
import { type Metrics, type RequestMetric, UNKNOWN_OPERATION } from '../../src/platform/metrics/index.ts';
import { isErrorType } from '../rest/errors.ts';
import { type AgentSurface, isObject, SUPPORTED_METHODS } from './methods.ts';

/**
 * The metric series of JSON-RPC messages: a tools/call under its tool's canonical name, another
 * method under its name, anything else under `unknown`. The series are made once per name (a closed
 * set: the tool table and the methods), never from what a client sent.
 */
export function agentMetrics(surface: AgentSurface) {
  const metrics: Metrics = surface.app.metrics;
  const series = new Map<string, RequestMetric>();
  for (const name of [
    ...surface.tools.tools.map((tool) => tool.row.name),
    ...SUPPORTED_METHODS,
    UNKNOWN_OPERATION,
  ]) {
    series.set(name, metrics.request('agent_tool', name));
  }
  const unknown = series.get(UNKNOWN_OPERATION)!;

  const operationOf = (message: unknown): RequestMetric => {
    if (!isObject(message) || typeof message.method !== 'string') return unknown;
    if (message.method !== 'tools/call') return series.get(message.method) ?? unknown;
    const name = isObject(message.params) ? message.params.name : undefined;
    const tool = typeof name === 'string' ? surface.tools.resolve(name) : null;
    return (tool && series.get(tool.row.name)) ?? unknown;
  };

  return {
    operationOf,
    /** Counts the error an answer carries, by its type (protocol errors are invalid requests). */
    countAnswer(response: JSONRPCResponse | null): boolean {
      const error = response?.error;
      if (!error) return false;
      const type = isObject(error.data) ? error.data.type : undefined;
      metrics.countError(
        'agent_tool',
        isErrorType(type) ? type : error.code < -32000 ? 'invalid_request_error' : 'api_error',
      );
      return true;
    },
  };
}
