import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  type GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Principal } from '../src/domains/accounts/index.ts';
import { type Channel, type ClientInfo, createContext } from './context.ts';
import { normaliseError } from './errors.ts';
import { type EnumTranslation, enumTranslation, toDomainValues, toEnumNames } from './facade-values.ts';
import { getFacadeSchema } from './index.ts';
import { refuseHostileInput } from './input-guard.ts';
import type { AppServices } from './services.ts';

export interface PreparedOperation {
  source: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** The operation compiled to a function once, at start-up (graphql-jit); null where it cannot be. */
  compiled: CompiledQuery | null;
  /** Enum names ↔ the domain values the facades speak. */
  enums: EnumTranslation;
}

export class InvalidOperationError extends Error {
  override name = 'InvalidOperationError';
}

/** Parses and validates a facade's document once, at start-up; an invalid document stops the server. */
export function prepareOperation(
  source: string,
  schema: GraphQLSchema = getFacadeSchema(),
): PreparedOperation {
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length > 0) {
    throw new InvalidOperationError(`${errors.map((e) => e.message).join('; ')}\nin document:\n${source}`);
  }
  const operation = getOperationAST(document);
  if (!operation) throw new InvalidOperationError(`The document must hold exactly one operation:\n${source}`);
  const compiled = operation.operation === 'subscription' ? null : compileQuery(schema, document);
  return {
    source,
    document,
    operation,
    compiled: compiled && isCompiledQuery(compiled) ? compiled : null,
    enums: enumTranslation(schema, document, operation),
  };
}

export interface RunOptions {
  principal: Principal | null;
  /** The facade the operation runs for. */
  channel: Channel;
  variables?: Record<string, unknown>;
  requestId?: string;
  client?: ClientInfo;
}

export interface OperationResult {
  data: Record<string, unknown> | null;
  errors: GraphQLError[];
}

/**
 * The one entry the facades use: runs a prepared operation as the given principal. Variables and data
 * carry the domain's values for enums (see facade-values.ts).
 */
export async function runOperation(
  app: AppServices,
  prepared: PreparedOperation,
  options: RunOptions,
): Promise<OperationResult> {
  const context = createContext(app, options.principal, {
    requestId: options.requestId,
    channel: options.channel,
    client: options.client,
  });
  const refused = refuseHostileInput(prepared.document, options.variables);
  if (refused) return { data: null, errors: [normaliseError(refused, app.logger, context.requestId)] };
  const variableValues = toEnumNames(options.variables, prepared.enums);
  const result = (
    prepared.compiled && app.config.GRAPHQL_COMPILED
      ? await prepared.compiled.query(undefined, context, variableValues ?? {})
      : await execute({
          schema: getFacadeSchema(),
          document: prepared.document,
          variableValues,
          contextValue: context,
        })
  ) as ExecutionResult;
  const data = (result.data as Record<string, unknown> | null | undefined) ?? null;
  toDomainValues(data, prepared.enums.output);
  return {
    data,
    errors: (result.errors ?? []).map((error) => normaliseError(error, app.logger, context.requestId)),
  };
}
