import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import SubGraphPlugin from '@pothos/plugin-sub-graph';
import ZodPlugin from '@pothos/plugin-zod';
import type { Scope } from '../src/domains/accounts/index.ts';
import { AppError, forbidden, unauthenticated } from '../src/platform/errors.ts';
import type { Context } from './context.ts';

export interface AuthScopes {
  /** Readable without a token: what the REST surface makes public. */
  public: boolean;
  /** A token carrying this scope. */
  scope: Scope;
  /** The scoped upload token of this upload session. */
  uploadSession: string;
}

/** `['tracks', 0, 'title']` → `tracks[0].title`, the field-path style of every error detail. */
function fieldPath(segments: readonly PropertyKey[]): string {
  return segments
    .map((s, i) => (typeof s === 'number' ? `[${s}]` : `${i === 0 ? '' : '.'}${String(s)}`))
    .join('');
}

/**
 * Two schemas from one set of types and resolvers. `public` is the typed API served on /graphql and printed
 * to schema.graphql. `facade` adds the wire fields the REST and agent facades run: they take the spec's JSON
 * bodies as sent (aliases, values of the wrong type) so that the release rules can report every problem
 * with its field path, as the spec promises (docs/graphql.md, "Typed bodies, and the wire fields").
 */
export type SubGraph = 'public' | 'facade';

/** Options of a field only the facades run (see SubGraph). */
export const FACADE_ONLY = { subGraphs: ['facade'] as SubGraph[] };

export const builder = new SchemaBuilder<{
  Context: Context;
  AuthScopes: AuthScopes;
  SubGraphs: SubGraph;
  DefaultFieldNullability: false;
  Scalars: {
    // GraphQL hands every ID argument over as a string (integers included); ids go out as strings.
    ID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
    StoreKey: { Input: number | string; Output: number | string };
  };
}>({
  plugins: [SubGraphPlugin, ScopeAuthPlugin, ZodPlugin, RelayPlugin, DataloaderPlugin],
  subGraphs: { defaultForTypes: ['public', 'facade'], fieldsInheritFromTypes: true },
  // No global `node`/`nodes` fields: every root field declares its scopes, and lookups go through owners.
  relay: {
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    pageInfoTypeOptions: { description: 'Where a page of a connection sits in the whole list.' },
  },
  defaultFieldNullability: false,
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (context) => ({
      public: true,
      scope: (scope) => context.principal?.scopes.has(scope) ?? false,
      uploadSession: (sessionId) => context.principal?.uploadSessionId === sessionId.toLowerCase(),
    }),
    unauthorizedError: (_parent, context, info, result) => {
      if (!context.principal)
        return unauthenticated('A bearer token is required for this field.', 'missing_token');
      return forbidden(
        `This token may not read ${info.parentType.name}.${info.fieldName}: ${result.message}`,
        'insufficient_scope',
      );
    },
  },
  zod: {
    validationError: (error) =>
      new AppError(
        'invalid_request_error',
        'invalid_argument',
        error.issues[0]
          ? `${fieldPath(error.issues[0].path)}: ${error.issues[0].message}`
          : 'Invalid argument.',
        {
          details: error.issues.map((issue) => ({ path: fieldPath(issue.path), message: issue.message })),
        },
      ),
  },
});

/** Field-level scopes: every root field names one of these (a test walks the schema to prove it). */
export const PUBLIC = { public: true } as const;
export const MCP = { scope: 'svc:mcp' } as const;
export const FRAUD = { scope: 'svc:fraud' } as const;

builder.queryType({
  description: 'Reads. Every field names the scope it needs (see the field descriptions).',
});
builder.mutationType({
  description: 'Changes. Each runs in one transaction: it happens whole or not at all.',
});
builder.subscriptionType({ description: 'Live streams over graphql-ws (or server-sent events).' });
