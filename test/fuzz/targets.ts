import fc from 'fast-check';
import {
  type GraphQLField,
  type GraphQLInputType,
  getNamedType,
  isCompositeType,
  isEnumType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { z } from 'zod';
import type { RestRoute } from '../../facades/rest/route.ts';
import { restRoutes } from '../../facades/rest/routes/index.ts';
import { agentHttpRoutes } from '../../facades/rpc/http-routes.ts';
import { agentTools } from '../../facades/rpc/tools/index.ts';
import { getSchema } from '../../schema/index.ts';
import { type Encoded, encodeBody } from './transport.ts';
import { deepJsonText, hostileJson, hostileNumber, hostileString } from './values.ts';

export type Surface = 'rest' | 'agent-http' | 'graphql' | 'rpc' | 'bytes';

export interface FuzzRequest {
  surface: Surface;
  /** What is fuzzed: a route, a root field, a tool or a byte route. */
  target: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array | string | undefined;
}

/** Real things of the fuzzing account, so that generated requests also reach past the lookups. */
export interface Fixtures {
  token: string;
  releaseId: string;
  submission: { release: Record<string, unknown>; tracks: Record<string, unknown>[] };
  coverUrl: string;
}

const uuid = fc.uuid();

/** Percent-encodes a string; a lone surrogate (not encodable) becomes the bytes of one, which is invalid UTF-8. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
};

/** Valid JSON text mostly; sometimes not JSON, nested thousands deep, or holding NUL. */
function bodyText(value: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: value.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', 'nul', '[1,]', '\u0000', '{"a":"\\ud800"}') },
    { weight: 1, arbitrary: fc.constantFrom(deepJsonText(3000), `{"release":${deepJsonText(200)}}`) },
  );
}

const authorization = (fixtures: Fixtures) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant({ authorization: `Bearer ${fixtures.token}` }) },
    { weight: 1, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('Bearer', 'Bearer svc_pat_nope', 'Basic abc', 'Bearer a b').map((h) => ({
        authorization: h,
      })),
    },
  );

/** A path segment: a real id, a random one, or a hostile string (sometimes left unencoded on purpose). */
const segment = (fixtures: Fixtures) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(fixtures.releaseId) },
    { weight: 2, arbitrary: uuid },
    { weight: 2, arbitrary: hostileString.map((s) => encode(s) || '%20') },
    { weight: 1, arbitrary: fc.constantFrom('%ZZ', '%uD800', '%', '%E0%A4%A') },
  );

function mutatedSubmission(fixtures: Fixtures): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.constantFrom('release', 'tracks'), hostileString, hostileJson)
    .map(([part, key, value]) => {
      const copy = structuredClone(fixtures.submission) as Record<string, unknown>;
      if (part === 'release') (copy.release as Record<string, unknown>)[key || 'title'] = value;
      else (copy.tracks as Record<string, unknown>[])[0]![key || 'title'] = value;
      return copy;
    });
}

function restTarget(route: RestRoute, prefix: string, surface: Surface, fixtures: Fixtures) {
  const sources = Object.values(route.variables ?? {});
  const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const queries = sources.filter((s) => s.from === 'query');
  const bodyFields = sources.filter((s) => s.from === 'body');
  const headerFields = sources.filter((s) => s.from === 'header');
  const bodyObject = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(...bodyFields.map(() => fc.option(hostileJson, { nil: undefined })))
        .map((values) => Object.fromEntries(bodyFields.map((f, i) => [f.name, values[i]]))),
    },
    { weight: 2, arbitrary: mutatedSubmission(fixtures) },
    { weight: 1, arbitrary: fc.constant(fixtures.submission) },
    { weight: 1, arbitrary: hostileJson },
  );
  return fc
    .record({
      segments: fc.tuple(...params.map(() => segment(fixtures))),
      query: fc.tuple(...queries.map(() => fc.option(hostileString, { nil: undefined }))),
      headerValues: fc.tuple(...headerFields.map(() => fc.option(hostileString, { nil: undefined }))),
      auth: authorization(fixtures),
      encoded:
        bodyFields.length > 0 || route.method !== 'GET'
          ? bodyText(bodyObject).chain(encodeBody)
          : fc.constant<Encoded>({ body: undefined, headers: {} }),
    })
    .map(({ segments, query, headerValues, auth, encoded }): FuzzRequest => {
      let path = route.path;
      params.forEach((name, i) => {
        path = path.replace(`:${name}`, segments[i]!);
      });
      const search = queries
        .map((q, i) => (query[i] === undefined ? null : `${q.name}=${encode(query[i]!)}`))
        .filter(Boolean)
        .join('&');
      const headers: Record<string, string> = { ...auth, ...encoded.headers };
      headerFields.forEach((h, i) => {
        const value = headerValues[i];
        if (value !== undefined && /^[\x20-\x7e]*$/.test(value)) headers[h.name.toLowerCase()] = value;
      });
      return {
        surface,
        target: `${route.method} ${prefix}${route.path}`,
        method: route.method,
        path: `${prefix}${path}${search ? `?${search}` : ''}`,
        headers,
        body: route.method === 'GET' ? undefined : encoded.body,
      };
    });
}

/** A value for a GraphQL input type: usually of that type (with hostile content), sometimes not. */
function graphQLValue(type: GraphQLInputType, fixtures: Fixtures): fc.Arbitrary<unknown> {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return fc.array(graphQLValue(inner.ofType, fixtures), { maxLength: 3 });
  const named = getNamedType(inner);
  if (isEnumType(named)) return fc.constantFrom(...named.getValues().map((v) => v.name), 'NOPE');
  if (isScalarType(named)) {
    switch (named.name) {
      case 'Int':
      case 'Float':
        return hostileNumber;
      case 'Boolean':
        return fc.boolean();
      case 'ID':
        return fc.oneof(uuid, fc.constant(fixtures.releaseId), hostileString);
      case 'JSON':
        return fc.oneof(
          hostileJson,
          fc.constant(fixtures.submission.release),
          fc.constant(fixtures.submission.tracks),
        );
      default:
        return fc.oneof(hostileString, fc.constant(fixtures.releaseId), fc.constant(fixtures.coverUrl));
    }
  }
  return hostileJson;
}

function graphQLTarget(
  kind: 'query' | 'mutation',
  field: GraphQLField<unknown, unknown>,
  fixtures: Fixtures,
) {
  const returned = getNamedType(field.type);
  const selection = isCompositeType(returned) ? ' { __typename }' : '';
  const definitions = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const call = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const document = `${kind} Fuzz${definitions ? `(${definitions})` : ''} { ${field.name}${call ? `(${call})` : ''}${selection} }`;
  const variables = fc.tuple(
    ...field.args.map((a) =>
      fc.oneof(
        { weight: 5, arbitrary: graphQLValue(a.type, fixtures) },
        { weight: 1, arbitrary: hostileJson },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
    ),
  );
  return fc.record({ values: variables, auth: authorization(fixtures) }).chain(({ values, auth }) => {
    const vars = Object.fromEntries(field.args.map((a, i) => [a.name, values[i]]));
    return bodyText(fc.constant({ query: document, variables: vars }))
      .chain(encodeBody)
      .map(
        (encoded): FuzzRequest => ({
          surface: 'graphql',
          target: `${kind} ${field.name}`,
          method: 'POST',
          path: '/graphql',
          headers: { ...auth, ...encoded.headers },
          body: encoded.body,
        }),
      );
  });
}

function toolArguments(inputSchema: Record<string, unknown>, fixtures: Fixtures): fc.Arbitrary<unknown> {
  const properties = (inputSchema.properties ?? {}) as Record<string, { type?: string | string[] }>;
  const names = Object.keys(properties);
  const valueFor = (schema: { type?: string | string[] }) => {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    if (type === 'string')
      return fc.oneof(hostileString, fc.constant(fixtures.releaseId), fc.constant(fixtures.coverUrl));
    if (type === 'number' || type === 'integer') return hostileNumber;
    if (type === 'boolean') return fc.boolean();
    if (type === 'array')
      return fc.oneof(fc.array(hostileJson, { maxLength: 3 }), fc.constant(fixtures.submission.tracks));
    return fc.oneof(hostileJson, fc.constant(fixtures.submission.release));
  };
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(...names.map((n) => fc.option(valueFor(properties[n]!), { nil: undefined })))
        .map((values) => Object.fromEntries(names.map((n, i) => [n, values[i]]))),
    },
    { weight: 1, arbitrary: fc.constant(fixtures.submission) },
    { weight: 1, arbitrary: hostileJson },
  );
}

function rpcMessages(fixtures: Fixtures) {
  const tools = agentTools.map((tool) => ({
    name: tool.name,
    schema: z.toJSONSchema(tool.args) as Record<string, unknown>,
  }));
  const id = fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 1, max: 1e6 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>({}, [], true, null, 'x', 1.5, { a: [1] }) },
  );
  const call = fc.record({ id, tool: fc.constantFrom(...tools) }).chain(({ id, tool }) =>
    toolArguments(tool.schema, fixtures).map((args) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: tool.name, arguments: args },
    })),
  );
  const protocol = fc.record({
    jsonrpc: fc.constantFrom<unknown>('2.0', '1.0', 2, undefined),
    id,
    method: fc.constantFrom<unknown>(
      'initialize',
      'tools/list',
      'resources/list',
      'resources/read',
      'ping',
      'nope',
      42,
    ),
    params: fc.option(hostileJson, { nil: undefined }),
  });
  const message = fc.oneof({ weight: 4, arbitrary: call }, { weight: 1, arbitrary: protocol });
  const body = fc.oneof(
    { weight: 6, arbitrary: message },
    { weight: 1, arbitrary: fc.array(message, { minLength: 0, maxLength: 3 }) },
    { weight: 1, arbitrary: hostileJson },
  );
  return fc.record({ auth: authorization(fixtures), encoded: bodyText(body).chain(encodeBody) }).map(
    ({ auth, encoded }): FuzzRequest => ({
      surface: 'rpc',
      target: 'POST /api/mcp',
      method: 'POST',
      path: '/api/mcp',
      headers: { ...auth, ...encoded.headers },
      body: encoded.body,
    }),
  );
}

function byteRoutes(fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  const part = (name: string, filename: string | null, content: string) =>
    `--fz\r\nContent-Disposition: form-data; name="${name}"${filename === null ? '' : `; filename="${filename}"`}\r\n\r\n${content}\r\n`;
  const multipart = fc
    .record({
      field: fc.constantFrom('file', 'chunk', 'other', ''),
      filename: fc.oneof(fc.constant(null), hostileString),
      content: hostileString,
      type: fc.constantFrom('coverArt', 'audio', '', 'x'.repeat(300)),
      closed: fc.boolean(),
    })
    .map(
      ({ field, filename, content, type, closed }) =>
        `${part('type', null, type)}${part('sessionId', null, fixtures.releaseId)}${part('chunkIndex', null, '0')}${part(field, filename, content)}${closed ? '--fz--\r\n' : ''}`,
    );
  return fc.oneof(
    fc
      .record({
        path: fc.constantFrom('/api/mcp/upload', '/api/mcp/upload/chunk'),
        body: multipart,
        auth: authorization(fixtures),
      })
      .map(({ path, body, auth }) => ({
        surface: 'bytes' as const,
        target: `POST ${path} (multipart)`,
        method: 'POST',
        path,
        headers: { ...auth, 'content-type': 'multipart/form-data; boundary=fz' },
        body,
      })),
    fc
      .record({
        session: fc.oneof(uuid, hostileString),
        index: hostileString,
        body: hostileString,
        auth: authorization(fixtures),
      })
      .map(({ session, index, body, auth }) => {
        const headers: Record<string, string> = { ...auth, 'content-type': 'application/octet-stream' };
        if (/^[\x20-\x7e]*$/.test(session)) headers['x-session-id'] = session;
        if (/^[\x20-\x7e]*$/.test(index)) headers['x-chunk-index'] = index;
        return {
          surface: 'bytes' as const,
          target: 'POST /api/mcp/upload/chunk (raw)',
          method: 'POST',
          path: '/api/mcp/upload/chunk',
          headers,
          body,
        };
      }),
    fc
      .record({
        a: segment(fixtures),
        b: segment(fixtures),
        c: segment(fixtures),
        auth: authorization(fixtures),
      })
      .map(({ a, b, c, auth }) => ({
        surface: 'bytes' as const,
        target: 'GET /api/files/*',
        method: 'GET',
        path: fc.sample(
          fc.constantFrom(
            `/api/files/${a}/${b}/${c}`,
            `/api/files/signed/${a}`,
            `/api/files/thumbnails/${a}/${b}/${c}?expires=${a}&sig=${b}`,
            `/api/mcp/upload/status?sessionId=${a}`,
          ),
          1,
        )[0]!,
        headers: auth,
      })),
  );
}

/** Every REST route, agent HTTP route, GraphQL root field, agent tool and byte route, as generators. */
export function allTargets(
  fixtures: Fixtures,
): { surface: Surface; name: string; arbitrary: fc.Arbitrary<FuzzRequest> }[] {
  const schema = getSchema();
  const targets: { surface: Surface; name: string; arbitrary: fc.Arbitrary<FuzzRequest> }[] = [];
  for (const route of restRoutes) {
    targets.push({
      surface: 'rest',
      name: `${route.method} /v1${route.path}`,
      arbitrary: restTarget(route, '/v1', 'rest', fixtures),
    });
  }
  for (const route of agentHttpRoutes) {
    targets.push({
      surface: 'agent-http',
      name: `${route.method} /api/mcp${route.path}`,
      arbitrary: restTarget(route, '/api/mcp', 'agent-http', fixtures),
    });
  }
  for (const [kind, type] of [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      targets.push({
        surface: 'graphql',
        name: `${kind} ${field.name}`,
        arbitrary: graphQLTarget(kind, field, fixtures),
      });
    }
  }
  targets.push({ surface: 'rpc', name: 'POST /api/mcp', arbitrary: rpcMessages(fixtures) });
  targets.push({ surface: 'bytes', name: 'byte routes', arbitrary: byteRoutes(fixtures) });
  return targets;
}
