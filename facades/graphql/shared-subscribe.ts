import { createSourceEventStream, type ExecutionArgs, type ExecutionResult, execute } from 'graphql';

type SourceStream = Awaited<ReturnType<typeof createSourceEventStream>>;

type Result = ExecutionResult | Promise<ExecutionResult>;

/** Per published event object: its execution result per (document, operation, variables). */
const results = new WeakMap<object, Map<string, Result>>();

/** What makes two operations' results for one event equal: document, operation name, variables. */
export function queryKey(args: ExecutionArgs): string {
  return `${args.document.loc?.source.body ?? ''}\u0000${args.operationName ?? ''}\u0000${JSON.stringify(args.variableValues ?? {})}`;
}

async function* mapEvents(
  source: AsyncIterable<unknown>,
  args: ExecutionArgs,
): AsyncGenerator<ExecutionResult> {
  const key = queryKey(args);
  for await (const payload of source) {
    if (typeof payload !== 'object' || payload === null) {
      yield await execute({ ...args, rootValue: payload });
      continue;
    }
    let byQuery = results.get(payload);
    if (!byQuery) {
      byQuery = new Map();
      results.set(payload, byQuery);
    }
    let result = byQuery.get(key);
    if (!result) {
      result = execute({ ...args, rootValue: payload });
      byQuery.set(key, result);
    }
    yield await result;
  }
}

/**
 * graphql-js `subscribe`, except that one published event is executed once per distinct query and the
 * result shared by every subscriber receiving that same event object (the pub/sub hands all local
 * listeners one object). Sound because streams are filtered per account before this point and the
 * fields of subscription payload types are functions of the event alone, never of the subscriber.
 */
export async function sharedSubscribe(
  args: ExecutionArgs,
  created?: SourceStream,
): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  const source = created ?? (await createSourceEventStream(args));
  if (!(Symbol.asyncIterator in (source as object))) return source as ExecutionResult;
  return mapEvents(source as AsyncIterable<unknown>, args);
}
