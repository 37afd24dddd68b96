import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  parse,
  type Source,
  specifiedRules,
  type ValidationRule,
  validate,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * What one GraphQL document on /graphql may ask for. Introspection is exempt (GraphiQL and codegen
 * need it whole); the facades' own documents are fixed and validated once at start-up.
 */
export const QUERY_LIMITS = {
  depth: 12,
  aliases: 30,
  directives: 50,
  /** graphql-armor's cost: 2 per object field, 1 per scalar, times 1.5 per level of depth. */
  cost: 5000,
  /** Lexical tokens of the document (checked while parsing). */
  tokens: 5000,
} as const;

/** The refusal in the platform's vocabulary: invalid_request_error with a code naming the limit. */
const tagged = (code: string) => [
  (_context: unknown, error: GraphQLError) => {
    Object.assign(error.extensions, { type: 'invalid_request_error', code });
  },
];

/** Validation rules for the limits above, shared by GraphQL over HTTP and over WebSocket. */
export function queryLimitRules(): ValidationRule[] {
  return [
    maxDepthRule({ n: QUERY_LIMITS.depth, ignoreIntrospection: true, onReject: tagged('query_too_deep') }),
    // graphql-armor lets `__typename` be aliased without counting by default: 500 such aliases would run.
    maxAliasesRule({ n: QUERY_LIMITS.aliases, allowList: [], onReject: tagged('too_many_aliases') }),
    maxDirectivesRule({ n: QUERY_LIMITS.directives, onReject: tagged('too_many_directives') }),
    costLimitRule({
      maxCost: QUERY_LIMITS.cost,
      ignoreIntrospection: true,
      onReject: tagged('query_too_costly'),
    }),
  ] as ValidationRule[];
}

/** The same limits as yoga plugins for /graphql over HTTP: the token count while parsing, the rest as rules. */
export function queryLimitPlugins(): Plugin[] {
  return [
    maxTokensPlugin({ n: QUERY_LIMITS.tokens, onReject: tagged('too_many_tokens') }) as Plugin,
    {
      onValidate: ({ addValidationRule }) => {
        for (const rule of queryLimitRules()) addValidationRule(rule);
      },
    },
  ];
}

/** graphql-ws parses and validates on its own: the same limits, as its parse and validate functions. */
export const limitedParse = (source: string | Source) => parse(source, { maxTokens: QUERY_LIMITS.tokens });
export function limitedValidate(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] {
  try {
    return validate(schema, document, [...specifiedRules, ...queryLimitRules()]);
  } catch (error) {
    // The limit rules throw their refusal (yoga turns that into the answer; graphql-ws would close).
    if (error instanceof GraphQLError) return [error];
    throw error;
  }
}
