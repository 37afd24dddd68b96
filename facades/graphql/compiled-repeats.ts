import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  GraphQLError,
  type Source,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

/**
 * A cache of compiled operations (graphql-jit), one per document and operation name, held as long as the
 * document is: the document's operation compiled on first ask, null where it cannot be.
 */
export function compiledOperations(): (args: ExecutionArgs) => CompiledQuery | null {
  const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();
  return (args) => {
    const name = args.operationName ?? '';
    let byName = compiled.get(args.document);
    if (!byName) {
      byName = new Map();
      compiled.set(args.document, byName);
    }
    let query = byName.get(name);
    if (query === undefined) {
      const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
      query = isCompiledQuery(result) ? result : null;
      byName.set(name, query);
    }
    return query;
  };
}

/**
 * Queries and mutations run compiled (graphql-jit, as the facades' operations are) from a document's
 * second run on; a document's first run goes through yoga's executor, so a stream of distinct documents
 * costs no compilation. Documents come from yoga's parse cache: the same text is the same document.
 * What the compiled query answers as a request error (variables that do not coerce) is answered again
 * by yoga's executor, so those errors, their locations and the 400 are exactly a first run's.
 */
export function useCompiledRepeats(): Plugin {
  const seen = new WeakSet<DocumentNode>();
  const compiledFor = compiledOperations();

  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (!seen.has(args.document)) {
        seen.add(args.document);
        return;
      }
      const query = compiledFor(args);
      if (!query) return;
      setExecuteFn(async (execution) => {
        const result = (await query.query(
          execution.rootValue,
          execution.contextValue,
          execution.variableValues ?? {},
        )) as ExecutionResult;
        if (!('data' in result)) return executeFn(execution);
        const source = execution.document.loc?.source;
        return inExecutorOrder(result, source ? (e) => placed(e, source) : (e) => e);
      });
    },
  };
}

/**
 * A compiled result as graphql-js's executor writes one: `errors` (each passed through `each`) before
 * `data`, so that an answer's bytes do not depend on which executor ran it. graphql-jit puts `data` first.
 */
export function inExecutorOrder(
  result: ExecutionResult,
  each: (error: GraphQLError) => GraphQLError,
): ExecutionResult {
  if (!result.errors) return result;
  const { errors, data, ...rest } = result;
  return { errors: errors.map(each), data, ...rest };
}

/**
 * A compiled run's error names its place by `locations` alone (graphql-jit keeps no AST nodes); yoga
 * writes an error's locations from its nodes or its source and positions, so the error gets those.
 */
export function placed(error: GraphQLError, source: Source): GraphQLError {
  if (error.nodes || error.positions || !error.locations?.length) return error;
  const lineStarts = [0];
  for (const match of source.body.matchAll(/\r\n|[\n\r]/g)) lineStarts.push(match.index + match[0].length);
  const positions = error.locations.map(({ line, column }) => (lineStarts[line - 1] ?? 0) + column - 1);
  return new GraphQLError(error.message, {
    source,
    positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}
