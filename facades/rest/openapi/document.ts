import { type GraphQLSchema, print } from 'graphql';
import { prepareOperation } from '../../../schema/execute.ts';
import { FACTS } from '../../../schema/facade-facts.ts';
import { getFacadeSchema } from '../../../schema/index.ts';
import type { RestRoute } from '../route.ts';
import { DISCOVERY_OPERATIONS } from './discovery-operations.ts';
import { ERROR_RESPONSES, ERROR_SCHEMA, errorStatusesFor } from './errors.ts';
import { routeInputs } from './parameters.ts';
import { pathParameterNames, toOpenApiPath } from './paths.ts';
import { responseSchema } from './selection.ts';
import { TOKEN_ENDPOINT, TOKEN_ENDPOINT_OPERATION } from './token-endpoint.ts';
import type {
  HttpMethodKey,
  OpenApiDocument,
  OpenApiMediaType,
  OpenApiOperation,
  OpenApiResponseOrRef,
} from './types.ts';

export const API_TITLE = 'Tributary API';
export const API_VERSION = '1.0.0';
export const API_DESCRIPTION = [
  'Music distribution: upload audio and cover art, price and submit releases to digital stores, monitor',
  `delivery, buy credits (1 credit = ${FACTS.creditPriceUsd} USD; credits never expire).`,
  '',
  'Every REST call runs one GraphQL operation (shown as `x-graphql-document`); the same operation',
  'sent to `/graphql` answers the same data. Errors share one envelope (`Error`): `type`, `code`,',
  '`message`, optional `details`, `retryAfterSeconds` and `requestId`.',
].join('\n');

/** The server URL written into the checked-in docs/openapi.json. */
export const PLACEHOLDER_SERVER_URL = 'http://localhost:8080/v1';

const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted' };

export interface BuildOptions {
  /** `{base_url}`: the public URL followed by `/v1`. */
  serverUrl: string;
  schema?: GraphQLSchema;
}

function errorResponses(statuses: string[]): Record<string, OpenApiResponseOrRef> {
  const responses: Record<string, OpenApiResponseOrRef> = {};
  for (const status of statuses) {
    const entry = ERROR_RESPONSES[status];
    if (entry) responses[status] = { $ref: `#/components/responses/${entry.name}` };
  }
  return responses;
}

function security(auth: 'public' | 'bearer'): Record<string, string[]>[] {
  return auth === 'bearer' ? [{ bearerAuth: [] }] : [];
}

function routeOperation(route: RestRoute, schema: GraphQLSchema): OpenApiOperation {
  const prepared = prepareOperation(route.document, schema);
  const { parameters, requestBody } = routeInputs(route, prepared, schema);
  const content: Record<string, OpenApiMediaType> = {
    'application/json': { schema: responseSchema(prepared, schema, route.select) },
  };
  for (const type of route.produces ?? []) {
    if (type !== 'application/json') content[type] = { schema: { type: 'string' } };
  }
  const status = route.status ?? 200;
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: security(route.auth),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [String(status)]: { description: SUCCESS_DESCRIPTIONS[status] ?? 'Success', content },
      ...errorResponses(
        errorStatusesFor({
          bearer: route.auth === 'bearer',
          pathParams: pathParameterNames(route.path).length > 0,
          mutates: route.method !== 'GET',
          ...(route.errors ? { extra: route.errors } : {}),
        }),
      ),
    },
    'x-graphql-document': print(prepared.document),
  };
}

/**
 * The OpenAPI 3.1 description of /v1, generated from the route table: parameters from the GraphQL
 * variables' types, response bodies from the documents' selection sets. Key order is fixed by
 * construction and paths follow the table's order, so the output is stable for the drift check.
 */
export function buildOpenApiDocument(routes: readonly RestRoute[], options: BuildOptions): OpenApiDocument {
  const schema = options.schema ?? getFacadeSchema();
  const paths: OpenApiDocument['paths'] = {};
  const tags: string[] = [];
  const add = (path: string, method: string, tag: string, operation: OpenApiOperation) => {
    const item = paths[path] ?? {};
    paths[path] = item;
    const key = method.toLowerCase() as HttpMethodKey;
    if (item[key]) throw new Error(`Two operations for ${method} ${path}.`);
    item[key] = operation;
    if (!tags.includes(tag)) tags.push(tag);
  };

  for (const discovery of DISCOVERY_OPERATIONS) {
    add(discovery.path, discovery.method, discovery.tag, {
      operationId: discovery.operationId,
      summary: discovery.summary,
      tags: [discovery.tag],
      security: security(discovery.auth),
      responses: {
        '200': { description: 'OK', content: { [discovery.contentType]: { schema: discovery.schema } } },
        ...errorResponses(['500']),
      },
    });
  }
  for (const route of routes) {
    add(toOpenApiPath(route.path), route.method, route.tag, routeOperation(route, schema));
  }
  add(TOKEN_ENDPOINT.path, TOKEN_ENDPOINT.method, TOKEN_ENDPOINT.tag, TOKEN_ENDPOINT_OPERATION);

  const responses: OpenApiDocument['components']['responses'] = {};
  for (const { name, response } of Object.values(ERROR_RESPONSES)) responses[name] = response;

  return {
    openapi: '3.1.0',
    info: { title: API_TITLE, version: API_VERSION, description: API_DESCRIPTION },
    servers: [{ url: options.serverUrl }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A personal access token (`svc_pat_…`) or an OAuth 2.1 access token, sent as ' +
            '`Authorization: Bearer <access_token>`. REST endpoints need a token carrying scope ' +
            '`svc:mcp`; /fraud/score needs `svc:fraud`.',
        },
      },
      schemas: { Error: ERROR_SCHEMA },
      responses,
    },
  };
}

/** The text of docs/openapi.json: two-space JSON with a trailing newline. */
export function serialiseOpenApi(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
