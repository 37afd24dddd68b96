import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../facades/rest/openapi/document.ts';
import type { JsonSchema, OpenApiDocument } from '../../facades/rest/openapi/types.ts';
import type { RestRoute } from '../../facades/rest/route.ts';
import { restRoutes } from '../../facades/rest/routes/index.ts';
import { agentHttpRoutes } from '../../facades/rpc/http-routes.ts';

const FREE_FORM = /free-form/i;

function resolved(schema: JsonSchema, document: OpenApiDocument): JsonSchema {
  if (!schema.$ref) return schema;
  const target = document.components.schemas[schema.$ref.split('/').pop() ?? ''];
  if (!target) throw new Error(`unresolved ${schema.$ref}`);
  return resolved(target, document);
}

function typed(schema: JsonSchema, document: OpenApiDocument): boolean {
  const own = resolved(schema, document);
  if (own.oneOf) return own.oneOf.every((option) => typed(option, document));
  return own.type !== undefined;
}

/** Every property (at any depth) of a body schema that has no type and does not say it is free-form. */
function untyped(
  schema: JsonSchema,
  document: OpenApiDocument,
  at: string,
  seen = new Set<JsonSchema>(),
): string[] {
  const own = resolved(schema, document);
  if (seen.has(own)) return [];
  seen.add(own);
  const found: string[] = [];
  for (const [name, property] of Object.entries(own.properties ?? {})) {
    const path = `${at}.${name}`;
    if (!typed(property, document) && !FREE_FORM.test(property.description ?? '')) found.push(path);
    found.push(...untyped(property, document, path, seen));
  }
  if (own.items) found.push(...untyped(own.items, document, `${at}[]`, seen));
  if (typeof own.additionalProperties === 'object')
    found.push(...untyped(own.additionalProperties, document, `${at}{}`, seen));
  for (const option of own.oneOf ?? []) found.push(...untyped(option, document, at, seen));
  return found;
}

function untypedBodyProperties(routes: RestRoute[]): string[] {
  const document = buildOpenApiDocument(routes, { serverUrl: 'https://api.example.test/v1' });
  const found: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const media of Object.values(operation?.requestBody?.content ?? {})) {
        found.push(...untyped(media.schema, document, `${method.toUpperCase()} ${path}`));
      }
    }
  }
  return found;
}

describe('every request-body property of the REST reference has a type', () => {
  it('on /v1, unless its description says it is free-form', () => {
    expect(untypedBodyProperties(restRoutes)).toEqual([]);
  });

  it('on the agent HTTP routes under /api/mcp', () => {
    expect(untypedBodyProperties(agentHttpRoutes)).toEqual([]);
  });

  it('types track_patches, upload_requests and distributors', () => {
    const document = buildOpenApiDocument(restRoutes, { serverUrl: 'https://api.example.test/v1' });
    const body = (path: string) =>
      document.paths[path]?.post?.requestBody?.content['application/json']?.schema.properties ?? {};
    const patches = body('/drafts').track_patches;
    expect(patches?.type).toEqual(['array', 'null']);
    expect(Object.keys(patches?.items?.properties ?? {}).sort()).toEqual([
      'index',
      'patch',
      'remove',
      'track_number',
    ]);
    expect(body('/drafts').upload_requests).toMatchObject({
      type: ['array', 'null'],
      items: { type: 'object' },
      description: expect.stringMatching(FREE_FORM),
    });
    expect(body('/releases').distributors).toMatchObject({
      type: ['object', 'null'],
      description: expect.stringMatching(FREE_FORM),
    });
  });
});
