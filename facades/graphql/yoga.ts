import type { Server } from 'node:http';
import { GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import { authenticate, bearerToken, type Context, createContext } from '../../schema/context.ts';
import { appErrorExtensions, normaliseError } from '../../schema/errors.ts';
import { getSchema } from '../../schema/index.ts';
import type { AppServices } from '../../schema/services.ts';
import { AppError } from '../../src/platform/errors.ts';

export function createGraphQLHandler(app: AppServices): YogaServerInstance<Record<string, unknown>, Context> {
  return createYoga<Record<string, unknown>, Context>({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    graphiql: app.config.GRAPHIQL ? { subscriptionsProtocol: 'WS' } : false,
    landingPage: false,
    logging: false,
    context: async ({ request }) => {
      const requestId = request.headers.get('x-request-id') ?? crypto.randomUUID();
      try {
        const principal = await authenticate(app, bearerToken(request.headers.get('authorization')));
        return createContext(app, principal, requestId);
      } catch (error) {
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
    maskedErrors: {
      maskError: (error) => normaliseError(error as Error, app.logger, 'graphql'),
    },
  });
}

/** graphql-ws on the same HTTP server and path; the token travels in connectionParams.authorization. */
export function attachGraphQLWebSocket(app: AppServices, server: Server): WebSocketServer {
  const wss = new WebSocketServer({ server, path: '/graphql' });
  useServer<Record<string, unknown> | undefined>(
    {
      schema: getSchema(),
      context: async (ctx) => {
        const raw = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
        const header = typeof raw === 'string' ? (raw.startsWith('Bearer ') ? raw : `Bearer ${raw}`) : null;
        const principal = await authenticate(app, bearerToken(header));
        return createContext(app, principal);
      },
      onConnect: async (ctx) => {
        const raw = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
        if (raw === undefined) return true;
        if (typeof raw !== 'string') return false;
        try {
          await authenticate(app, bearerToken(raw.startsWith('Bearer ') ? raw : `Bearer ${raw}`));
          return true;
        } catch {
          return false;
        }
      },
      onError: (_ctx, _id, _payload, errors) =>
        errors.map((e) => normaliseError(e, app.logger, 'graphql-ws')),
    },
    wss,
  );
  return wss;
}
