import type { JsonSchema } from './types.ts';

/** The discovery endpoints served beside the route table (facades/rest/discovery.ts answers them). */
export interface DiscoveryOperation {
  operationId: string;
  method: 'GET';
  /** OpenAPI-style path under /v1. */
  path: string;
  summary: string;
  tag: string;
  auth: 'public';
  contentType: string;
  schema: JsonSchema;
}

const TAG = 'Discovery and metadata';

const ENDPOINT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
    path: { type: 'string', description: 'Full path including `/v1`, with `{name}` placeholders.' },
    summary: { type: 'string' },
    auth: { type: 'string', enum: ['public', 'bearer'] },
  },
  required: ['method', 'path', 'summary', 'auth'],
  additionalProperties: false,
};

const link = (description: string): JsonSchema => ({ type: 'string', format: 'uri', description });

export const API_INDEX_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    version: { type: 'string', description: 'The API version (semantic), also in the OpenAPI document.' },
    description: { type: 'string' },
    links: {
      type: 'object',
      properties: {
        openapi: link('This API as OpenAPI 3.1.'),
        docs: link('Human-readable API reference.'),
        graphql: link('The GraphQL endpoint every REST call is a twin of.'),
        mcp: link('The agent (JSON-RPC 2.0 / MCP) endpoint.'),
        status: link('Liveness probe.'),
      },
      required: ['openapi', 'docs', 'graphql', 'mcp', 'status'],
      additionalProperties: false,
    },
    endpoints: { type: 'array', items: ENDPOINT_SCHEMA },
  },
  required: ['name', 'version', 'description', 'links', 'endpoints'],
  additionalProperties: false,
};

export const DISCOVERY_OPERATIONS: DiscoveryOperation[] = [
  {
    operationId: 'getApiIndex',
    method: 'GET',
    path: '/',
    summary: 'API index: links to the descriptions and every endpoint',
    tag: TAG,
    auth: 'public',
    contentType: 'application/json',
    schema: API_INDEX_SCHEMA,
  },
  {
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    summary: 'This API described as OpenAPI 3.1',
    tag: TAG,
    auth: 'public',
    contentType: 'application/json',
    schema: { type: 'object', description: 'An OpenAPI 3.1 document.' },
  },
  {
    operationId: 'getApiReference',
    method: 'GET',
    path: '/docs',
    summary: 'Human-readable API reference (HTML), generated from the OpenAPI document',
    tag: TAG,
    auth: 'public',
    contentType: 'text/html',
    schema: { type: 'string' },
  },
];
