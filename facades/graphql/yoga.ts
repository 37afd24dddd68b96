import type { Server } from 'node:http';
import type { Request, Response } from 'express';
import { type DocumentNode, type ExecutionResult, GraphQLError, getOperationAST } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import { authenticate, bearerToken, type Context, createContext } from '../../schema/context.ts';
import { appErrorExtensions, normaliseError } from '../../schema/errors.ts';
import { getSchema } from '../../schema/index.ts';
import { refuseHostileInput } from '../../schema/input-guard.ts';
import type { AppServices } from '../../schema/services.ts';
import { databaseUnavailable } from '../../src/platform/db/unavailable.ts';
import { AppError } from '../../src/platform/errors.ts';
import { UNKNOWN_OPERATION } from '../../src/platform/metrics/index.ts';
import { currentRequestId } from '../../src/platform/request-scope.ts';
import { clientInfo } from '../client-info.ts';
import { observeRequest } from '../metrics.ts';
import { useCompiledRepeats } from './compiled-repeats.ts';
import { countGraphQLError } from './error-metrics.ts';
import { createFanOut } from './fan-out.ts';
import { graphiql } from './graphiql.ts';
import { type PersistedDocumentStore, sha256Of } from './persisted/document-store.ts';
import { untrustedDocument } from './persisted/trusted-only.ts';
import { limitedParse, limitedValidate, queryLimitPlugins } from './query-limits.ts';

/** What express hands yoga with each request: the request itself, for the caller's address. */
type ServerContext = { req?: Request };

export function createGraphQLHandler(app: AppServices): YogaServerInstance<ServerContext, Context> {
  const page = graphiql();
  return createYoga<ServerContext, Context>({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    graphiql: app.config.GRAPHIQL ? page.options : false,
    // GraphiQL's script and styles come from an npm package, inlined in the page: nothing leaves the machine.
    renderGraphiQL: page.render,
    landingPage: false,
    logging: false,
    context: async ({ request, req }) => {
      const requestId = currentRequestId() ?? crypto.randomUUID();
      try {
        const principal = await authenticate(app, bearerToken(request.headers.get('authorization')));
        return createContext(app, principal, { requestId, ...(req ? { client: clientInfo(req) } : {}) });
      } catch (error) {
        const unavailable = databaseUnavailable(error);
        if (unavailable) {
          throw new GraphQLError(unavailable.message, {
            extensions: {
              ...appErrorExtensions(unavailable),
              http: { status: 503, headers: { 'retry-after': String(unavailable.retryAfterSeconds) } },
            },
          });
        }
        if (!(error instanceof AppError)) throw error;
        // A bad token fails the whole request, as on the other surfaces: HTTP 401 with a challenge.
        throw new GraphQLError(error.message, {
          extensions: {
            ...appErrorExtensions(error),
            http: { status: 401, headers: { 'www-authenticate': 'Bearer realm="tributary"' } },
          },
        });
      }
    },
    plugins: [
      ...queryLimitPlugins(),
      useInputGuard(app),
      useMetrics(app),
      ...(app.config.GRAPHQL_COMPILED ? [useCompiledRepeats()] : []),
      page.plugin,
    ],
    maskedErrors: {
      maskError: (error) => normaliseError(error as Error, app.logger),
    },
  });
}

/** The express handler of /graphql: yoga, then the request observed under its operation's name. */
export function measuredGraphQL(app: AppServices, yoga: YogaServerInstance<ServerContext, Context>) {
  return async (req: Request, res: Response): Promise<void> => {
    await yoga(req, res, { req });
    const name = res.locals.graphqlOperation as string | undefined;
    observeRequest(
      app.metrics.graphqlOperation(name ?? UNKNOWN_OPERATION),
      res,
      res.locals.graphqlFailed === true || res.statusCode >= 400,
    );
  };
}

/** The response a yoga hook's context or server context carries (express's, when mounted there). */
const responseOf = (context: unknown): Response | undefined =>
  (context as { res?: Response } | undefined)?.res;

/**
 * Records, for the metrics, the operation a request runs (its name, or `anonymous`) and counts the
 * errors its answer carries by type.
 */
function useMetrics(app: AppServices): Plugin {
  const name = ({
    args,
  }: {
    args: { document: DocumentNode; operationName?: string | null; contextValue: unknown };
  }) => {
    const res = responseOf(args.contextValue);
    if (!res) return;
    const operation = getOperationAST(args.document, args.operationName ?? undefined);
    // Only a signed-in caller's valid document may name a series of its own: otherwise anyone could
    // spend the bounded set of names (and make their labels permanent) with junk names.
    const signedIn = (args.contextValue as Partial<Context>).principal != null;
    res.locals.graphqlOperation = signedIn ? (operation?.name?.value ?? 'anonymous') : 'anonymous';
  };
  return {
    // A document that fails validation is counted as `anonymous`, whatever name it gives itself.
    onValidate: ({ context }) => {
      const res = responseOf(context);
      if (res) res.locals.graphqlOperation = 'anonymous';
    },
    onExecute: name,
    onSubscribe: name,
    onResultProcess: ({ result, serverContext }) => {
      const res = responseOf(serverContext);
      if (!res || Symbol.asyncIterator in result) return;
      for (const each of Array.isArray(result) ? result : [result]) {
        for (const error of each.errors ?? []) {
          countGraphQLError(app, error);
          res.locals.graphqlFailed = true;
          // A dependency away for a moment (the database): the answer says when to retry, as REST's does.
          const { type, retryAfterSeconds } = (error.extensions ?? {}) as Record<string, unknown>;
          if (type === 'unavailable_error' && typeof retryAfterSeconds === 'number')
            res.setHeader('Retry-After', String(retryAfterSeconds));
        }
      }
    },
  };
}

/** Input no operation may carry (NUL characters), refused before any resolver runs. */
function useInputGuard(app: AppServices): Plugin {
  const guard = ({ args, setResultAndStopExecution }: GuardPayload) => {
    const refused = refuseHostileInput(args.document, args.variableValues);
    if (refused) setResultAndStopExecution({ errors: [normaliseError(refused, app.logger)] });
  };
  return { onExecute: guard, onSubscribe: guard };
}

interface GuardPayload {
  args: { document: DocumentNode; variableValues?: Record<string, unknown> | null | undefined };
  setResultAndStopExecution(result: ExecutionResult): void;
}

/** The token of a graphql-ws connection: `connectionParams.authorization`, with or without `Bearer `. */
function connectionToken(params: Readonly<Record<string, unknown>> | undefined): string | null {
  const raw = params?.authorization ?? params?.Authorization;
  if (raw === undefined || raw === null) return null;
  return bearerToken(typeof raw === 'string' && !/^Bearer\s/i.test(raw) ? `Bearer ${raw}` : String(raw));
}

/** The GraphQL WebSocket endpoint's side of a stop. */
export interface GraphQLWebSocket {
  /** Refuses new connections and sends every client the close 1001 "Going away" (it reconnects elsewhere). */
  begin(): void;
  /** Resolves once every client has closed, cutting those still open at `deadline`; how many were cut. */
  finish(deadline: number): Promise<number>;
}

/**
 * graphql-ws on the same HTTP server and path. A bad token closes the connection (4403); the token is
 * checked again for every operation, so a revocation takes effect on the next one.
 */
export function attachGraphQLWebSocket(
  app: AppServices,
  server: Server,
  documents: PersistedDocumentStore,
): GraphQLWebSocket {
  const wss = new WebSocketServer({ server, path: '/graphql' });
  const normalise = (errors: readonly GraphQLError[]) => errors.map((e) => normaliseError(e, app.logger));
  const fanOut = createFanOut(normalise, { compiled: app.config.GRAPHQL_COMPILED });
  /** Errors sent over graphql-ws count in the metrics by type, as answers over HTTP do. */
  const counted = (errors: ReturnType<typeof normalise>) => {
    for (const error of errors) countGraphQLError(app, error);
    return errors;
  };
  const endpoint = useServer<Record<string, unknown> | undefined>(
    {
      schema: getSchema(),
      parse: limitedParse,
      validate: limitedValidate,
      subscribe: fanOut.subscribe,
      context: async (ctx, id) =>
        fanOut.bind(
          createContext(app, await authenticate(app, connectionToken(ctx.connectionParams)), {
            client: {
              ip: ctx.extra.request.socket.remoteAddress ?? 'unknown',
              origin: ctx.extra.request.headers.origin ?? null,
              referer: ctx.extra.request.headers.referer ?? null,
            },
          }),
          ctx.extra.socket,
          id,
        ),
      onConnect: async (ctx) => {
        try {
          await authenticate(app, connectionToken(ctx.connectionParams));
        } catch {
          return false;
        }
        app.metrics.graphqlWsConnection(1);
        return true;
      },
      onDisconnect: () => app.metrics.graphqlWsConnection(-1),
      onOperation: (_ctx, _id, _payload, args) => {
        const operation = getOperationAST(args.document, args.operationName ?? undefined);
        app.metrics.graphqlWsOperationStarted(operation?.operation ?? 'subscription');
      },
      onComplete: () => app.metrics.graphqlWsOperationEnded(),
      onSubscribe: (_ctx, _id, payload) => {
        if (app.config.GRAPHQL_TRUSTED_DOCUMENTS_ONLY && !documents.find(sha256Of(payload.query))?.trusted)
          return normalise([untrustedDocument()]);
        let document: DocumentNode;
        try {
          document = limitedParse(payload.query);
        } catch {
          return; // graphql-ws answers the syntax error itself
        }
        const refused = refuseHostileInput(document, payload.variables);
        return refused ? normalise([refused]) : undefined;
      },
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: counted(normalise(result.errors)) } : result,
      onError: (_ctx, _id, _payload, errors) => counted(normalise(errors)),
    },
    wss,
  );
  let closing: Promise<void> | null = null;
  return {
    begin() {
      closing ??= Promise.resolve()
        .then(() => endpoint.dispose())
        .catch(() => {});
    },
    async finish(deadline) {
      this.begin();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      });
      await Promise.race([closing, late]);
      clearTimeout(timer);
      const cut = wss.clients.size;
      for (const client of wss.clients) client.terminate();
      await closing;
      return cut;
    },
  };
}
