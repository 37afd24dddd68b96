import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildOpenApiDocument,
  PLACEHOLDER_SERVER_URL,
  serialiseOpenApi,
} from '../../facades/rest/openapi/document.ts';
import { toOpenApiPath } from '../../facades/rest/openapi/paths.ts';
import type { JsonSchema, OpenApiDocument, OpenApiOperation } from '../../facades/rest/openapi/types.ts';
import { bodyField, pathParam, type RestRoute } from '../../facades/rest/route.ts';
import { restRoutes } from '../../facades/rest/routes/index.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

function operationOf(document: OpenApiDocument, method: string, path: string): OpenApiOperation | undefined {
  const item = document.paths[path] as Record<string, OpenApiOperation> | undefined;
  return item?.[method.toLowerCase()];
}

function successSchema(operation: OpenApiOperation | undefined): JsonSchema | undefined {
  const response = operation?.responses['200'];
  return response && 'content' in response ? response.content?.['application/json']?.schema : undefined;
}

/** A small validator for the JSON Schema subset the generator writes; returns the problems found. */
function conformance(value: unknown, schema: JsonSchema, document: OpenApiDocument, at = '$'): string[] {
  if (schema.$ref) {
    const target = document.components.schemas[schema.$ref.split('/').pop() ?? ''];
    return target ? conformance(value, target, document, at) : [`${at}: unresolved ${schema.$ref}`];
  }
  if (schema.oneOf) {
    const matches = schema.oneOf.filter((option) => conformance(value, option, document, at).length === 0);
    return matches.length === 1 ? [] : [`${at}: matches ${matches.length} of oneOf`];
  }
  const problems: string[] = [];
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const actual =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : Number.isInteger(value)
          ? 'integer'
          : typeof value;
  const fits = (type: string) => type === actual || (type === 'number' && actual === 'integer');
  if (types.length > 0 && !types.some(fits)) return [`${at}: ${actual} is not ${types.join('|')}`];
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${at}: ${String(value)} not in enum`);
  if (schema.format === 'date-time' && typeof value === 'string' && Number.isNaN(Date.parse(value)))
    problems.push(`${at}: not a date-time`);
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, index) => {
      problems.push(...conformance(item, schema.items as JsonSchema, document, `${at}[${index}]`));
    });
  }
  if (actual === 'object' && schema.properties) {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) problems.push(`${at}.${key}: missing`);
    for (const [key, item] of Object.entries(record)) {
      const property = schema.properties[key];
      if (property) problems.push(...conformance(item, property, document, `${at}.${key}`));
      else if (schema.additionalProperties === false) problems.push(`${at}.${key}: not documented`);
    }
  }
  return problems;
}

describe('OpenAPI description and discovery', () => {
  const app = useTestApp();

  it('serves OpenAPI 3.1.0, version 1.0.0, with the public URL as server', async () => {
    const response = await request<OpenApiDocument>(app().url, 'GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.info.version).toBe('1.0.0');
    expect(response.body.info.title).toBe('Tributary API');
    expect(response.body.servers).toEqual([{ url: `${app().url}/v1` }]);
    expect(response.body.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(response.body.components.securitySchemes.bearerAuth?.description).toContain('svc_pat_');
    expect(response.body.components.securitySchemes.bearerAuth?.description).toContain('svc:mcp');
  });

  it('serves exactly what buildOpenApiDocument builds', async () => {
    const response = await request(app().url, 'GET', '/v1/openapi.json');
    expect(response.body).toEqual(buildOpenApiDocument(restRoutes, { serverUrl: `${app().url}/v1` }));
  });

  it('describes every route row, with security matching its auth and the error envelope', async () => {
    const { body: document } = await request<OpenApiDocument>(app().url, 'GET', '/v1/openapi.json');
    for (const route of restRoutes) {
      const path = toOpenApiPath(route.path);
      const operation = operationOf(document, route.method, path);
      expect(operation, `${route.method} ${path}`).toBeDefined();
      expect(operation?.operationId).toBe(route.operationId);
      expect(operation?.tags).toEqual([route.tag]);
      if (route.auth === 'bearer') {
        expect(operation?.security, route.operationId).toEqual([{ bearerAuth: [] }]);
        expect(operation?.responses['401'], route.operationId).toEqual({
          $ref: '#/components/responses/Unauthorized',
        });
      } else {
        expect(operation?.security, route.operationId).toEqual([]);
        expect(operation?.responses['401'], route.operationId).toBeUndefined();
      }
      for (const status of ['400', '429', '500']) {
        expect(operation?.responses[status], `${route.operationId} ${status}`).toBeDefined();
      }
      if (path.includes('{')) expect(operation?.responses['404'], route.operationId).toBeDefined();
      expect(operation?.responses[String(route.status ?? 200)], route.operationId).toBeDefined();
      for (const type of route.produces ?? []) {
        const success = operation?.responses[String(route.status ?? 200)];
        expect(success && 'content' in success ? Object.keys(success.content ?? {}) : []).toContain(type);
      }
    }
    expect(document.components.schemas.Error?.required).toEqual(['type', 'code', 'message']);
    expect(document.components.schemas.Error?.properties?.type?.enum).toContain('authentication_error');
  });

  it('derives response schemas from the documents: /me has profile.email, aliases give the names', async () => {
    const { body: document } = await request<OpenApiDocument>(app().url, 'GET', '/v1/openapi.json');
    const me = successSchema(operationOf(document, 'GET', '/me'));
    expect(me?.properties?.profile?.properties?.email).toEqual({ type: 'string' });
    expect(me?.properties?.profile?.required).toContain('email');
    expect(me?.properties?.profile?.properties?.first_name?.type).toEqual(['string', 'null']);
    expect(me?.properties?.profile?.properties?.created_at).toMatchObject({
      type: 'string',
      format: 'date-time',
    });
    expect(me?.properties?.profile?.properties).not.toHaveProperty('firstName');

    const credits = operationOf(document, 'GET', '/me/credits');
    const creditsSchema = successSchema(credits);
    // select: the body is data.credits, not data.
    expect(creditsSchema?.properties).toHaveProperty('balance');
    expect(creditsSchema?.properties?.transactions?.items?.properties).toHaveProperty('balance_after');
    expect(credits?.parameters).toEqual([
      expect.objectContaining({
        name: 'transactions',
        in: 'query',
        required: false,
        schema: expect.objectContaining({ type: 'integer', default: 10 }),
      }),
    ]);
  });

  it('real answers conform to the documented schemas (success bodies and the error envelope)', async () => {
    const { body: document } = await request<OpenApiDocument>(app().url, 'GET', '/v1/openapi.json');
    const account = await accountWithToken(app().em(), { credits: 4 });
    const cases: [string, string, string, string | undefined][] = [
      ['GET', '/', '/v1/', undefined],
      ['GET', '/status', '/v1/status', undefined],
      ['GET', '/pricing', '/v1/pricing', undefined],
      ['GET', '/me', '/v1/me', account.token],
      ['GET', '/me/credits', '/v1/me/credits?transactions=3', account.token],
    ];
    for (const [method, path, url, token] of cases) {
      const schema = successSchema(operationOf(document, method, path));
      expect(schema, path).toBeDefined();
      const response = await request(app().url, method, url, { token });
      expect(response.status, url).toBe(200);
      expect(conformance(response.body, schema as JsonSchema, document), url).toEqual([]);
    }
    const unauthorized = await request(app().url, 'GET', '/v1/me');
    const errorSchema = document.components.schemas.Error as JsonSchema;
    expect(conformance(unauthorized.body, errorSchema, document)).toEqual([]);
    // The validator itself rejects what it should.
    expect(conformance({ type: 'nope' }, errorSchema, document)).not.toEqual([]);
  });

  it('the committed docs/openapi.json is up to date (npm run openapi:print)', () => {
    const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    const generated = buildOpenApiDocument(restRoutes, { serverUrl: PLACEHOLDER_SERVER_URL });
    expect(JSON.parse(committed)).toEqual(generated);
    expect(committed, 'docs/openapi.json is stale: run npm run openapi:print').toBe(
      serialiseOpenApi(generated),
    );
  });

  it('builds the same document twice (deterministic output)', () => {
    const once = serialiseOpenApi(buildOpenApiDocument(restRoutes, { serverUrl: PLACEHOLDER_SERVER_URL }));
    const twice = serialiseOpenApi(buildOpenApiDocument(restRoutes, { serverUrl: PLACEHOLDER_SERVER_URL }));
    expect(twice).toBe(once);
  });

  it('GET /v1/ lists every route and links to the descriptions', async () => {
    const response = await request(app().url, 'GET', '/v1/');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'Tributary API',
      version: '1.0.0',
      links: {
        openapi: `${app().url}/v1/openapi.json`,
        docs: `${app().url}/v1/docs`,
        graphql: `${app().url}/graphql`,
        mcp: `${app().url}/api/mcp`,
        status: `${app().url}/v1/status`,
      },
    });
    for (const route of restRoutes) {
      expect(response.body.endpoints).toContainEqual({
        method: route.method,
        path: `/v1${toOpenApiPath(route.path)}`,
        summary: route.summary,
        auth: route.auth,
      });
    }
    expect(response.body.endpoints).toContainEqual(
      expect.objectContaining({ method: 'GET', path: '/v1/openapi.json', auth: 'public' }),
    );
    const withoutSlash = await request(app().url, 'GET', '/v1');
    expect(withoutSlash.body).toEqual(response.body);
  });

  it('GET /v1/docs is a self-contained HTML reference naming every operation', async () => {
    const response = await request<string>(app().url, 'GET', '/v1/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = response.body;
    expect(html).toMatch(/^<!doctype html>/i);
    for (const route of restRoutes) {
      expect(html, route.operationId).toContain(`/v1${toOpenApiPath(route.path)}</code>`);
      expect(html, route.operationId).toContain(`id="${route.operationId.toLowerCase()}"`);
    }
    expect(html).toContain('authentication_error');
    expect(html).toContain('<code class="field">email</code>');
    // Text is escaped: the credits ref description mentions `release:<id>`.
    expect(html).toContain('<code>release:&lt;id&gt;</code>');
    expect(html).not.toContain('release:<id>');
    // Self-contained: no scripts, stylesheets, fonts or images from anywhere.
    expect(html).not.toMatch(/<script|<link\b|\ssrc=/i);
    // CSS may not load anything either (GraphQL text such as `importFileFromUrl(` is fine outside <style>).
    const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1]).join('\n');
    expect(styles).not.toMatch(/@import|url\(/i);
  });

  it('documents the release and track bodies by wire name, from the typed inputs', async () => {
    const document = buildOpenApiDocument(restRoutes, { serverUrl: 'https://api.example.test/v1' });
    const submit = operationOf(document, 'POST', '/releases');
    const body = submit?.requestBody?.content['application/json']?.schema as {
      properties: Record<
        string,
        {
          properties?: Record<string, unknown>;
          items?: { properties: Record<string, { type?: unknown; enum?: unknown }> };
        }
      >;
    };
    expect(Object.keys(body.properties.release?.properties ?? {})).toEqual(
      expect.arrayContaining([
        'title',
        'primary_artist_name',
        'cover_art_file_url',
        'distribution_store_ids',
      ]),
    );
    const track = body.properties.tracks?.items?.properties ?? {};
    expect(track.explicit_flag?.type).toEqual(['boolean', 'null']);
    expect(track.track_type?.enum).toEqual(['cover', 'original', 'public_domain', null]);
    const html = (await request<string>(app().url, 'GET', '/v1/docs')).body;
    expect(html).toContain('<code class="field">share_percent</code>');
  });

  it('answers other methods on the discovery paths with 405 and Allow', async () => {
    const response = await request(app().url, 'POST', '/v1/openapi.json', { body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
    expect(response.body).toMatchObject({ type: 'invalid_request_error', code: 'method_not_allowed' });
  });
});

describe('buildOpenApiDocument on rows beyond the current table', () => {
  const rows: RestRoute[] = [
    {
      operationId: 'createToken',
      method: 'POST',
      path: '/tokens',
      summary: 'Create a token',
      tag: 'Tokens',
      auth: 'bearer',
      status: 201,
      document: /* GraphQL */ `
        mutation CreateToken($name: String!, $scopes: [Scope!], $expires: TokenExpiry) {
          created: createAccessToken(name: $name, scopes: $scopes, expires: $expires) {
            token
            accessToken { id ...Dates }
          }
        }
        fragment Dates on AccessToken { last_used_at: lastUsedAt scopes }
      `,
      variables: {
        name: bodyField('name'),
        scopes: bodyField('scopes'),
        expires: { from: 'body', name: 'expires', schema: { description: 'How long it lives.' } },
      },
      select: 'created',
    },
    {
      operationId: 'revokeToken',
      method: 'DELETE',
      path: '/tokens/:id',
      summary: 'Revoke a token',
      tag: 'Tokens',
      auth: 'bearer',
      document: 'mutation Revoke($id: ID!) { revokeAccessToken(id: $id) { id status revokedAt } }',
      variables: { id: pathParam('id') },
    },
  ];
  const document = buildOpenApiDocument(rows, { serverUrl: 'https://api.example.test/v1' });

  it('types the JSON body from the variables: required, enums, lists, nullability', () => {
    const create = operationOf(document, 'POST', '/tokens');
    expect(create?.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              name: { type: 'string', minLength: 1, maxLength: 200 },
              scopes: { type: ['array', 'null'], items: { type: 'string', enum: ['svc:fraud', 'svc:mcp'] } },
              expires: {
                type: ['string', 'null'],
                enum: ['1y', '30d', '90d', 'none', null],
                description: 'How long it lives.',
              },
            },
            required: ['name'],
          },
        },
      },
    });
  });

  it('derives the 201 body through select, aliases and fragments', () => {
    const create = operationOf(document, 'POST', '/tokens');
    const created = create?.responses['201'];
    const schema =
      created && 'content' in created ? created.content?.['application/json']?.schema : undefined;
    expect(schema?.required).toEqual(['token', 'accessToken']);
    expect(schema?.properties?.accessToken?.properties).toEqual({
      id: { type: 'string' },
      last_used_at: { type: ['string', 'null'], format: 'date-time' },
      scopes: { type: 'array', items: { type: 'string' } },
    });
    expect(Object.keys(create?.responses ?? {})).toEqual([
      '201',
      '400',
      '401',
      '403',
      '409',
      '422',
      '429',
      '500',
    ]);
  });

  it('writes {id} paths with a required path parameter and documents 404', () => {
    const revoke = operationOf(document, 'DELETE', '/tokens/{id}');
    expect(revoke?.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
    ]);
    expect(revoke?.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(successSchema(revoke)?.properties?.revokeAccessToken?.properties?.revokedAt?.type).toEqual([
      'string',
      'null',
    ]);
    expect(document.tags.map((tag) => tag.name)).toEqual([
      'Discovery and metadata',
      'Tokens',
      'Authentication',
    ]);
    expect(document.servers).toEqual([{ url: 'https://api.example.test/v1' }]);
  });

  it('rejects a select that is not a response key', () => {
    const [first] = rows;
    expect(() =>
      buildOpenApiDocument([{ ...(first as RestRoute), select: 'nothing' }], {
        serverUrl: PLACEHOLDER_SERVER_URL,
      }),
    ).toThrow(/select "nothing"/);
  });
});
