import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, {
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { getSchema } from '../schema/index.ts';
import type { AppServices } from '../schema/services.ts';
import { UNKNOWN_OPERATION } from '../src/platform/metrics/index.ts';
import { runInRequestScope } from '../src/platform/request-scope.ts';
import { drainRequests } from './drain.ts';
import { createDownloadRoutes } from './files/download-routes.ts';
import { createUploadRoutes } from './files/upload-routes.ts';
import { refuseUnreadableGraphQLBodies } from './graphql/media-types.ts';
import { parsedGraphQLBody } from './graphql/parsed-body.ts';
import type { PersistedDocumentStore } from './graphql/persisted/document-store.ts';
import { persistedDocumentsFor } from './graphql/persisted/manifest.ts';
import { persistedDocumentPath } from './graphql/persisted/persisted-path.ts';
import { attachGraphQLWebSocket, createGraphQLHandler, measuredGraphQL } from './graphql/yoga.ts';
import { bodyParserErrors, unexpectedErrors } from './http-errors.ts';
import { attachMetrics, createMetricsRoute, markArrival, observeRequest } from './metrics.ts';
import { createOAuthRoutes, OAUTH_PATH_PREFIXES } from './oauth/index.ts';
import { writeRateLimitHeaders } from './rate-limit-headers.ts';
import { sendError } from './rest/errors.ts';
import { createRestApi, REST_MOUNT } from './rest/index.ts';
import { restRoutes } from './rest/routes/index.ts';
import { RouteTable } from './route-table.ts';
import { AGENT_MOUNT, createAgentApi } from './rpc/index.ts';
import { originGuard } from './rpc/origin-guard.ts';
import { resourceMetadataUrl } from './rpc/protocol.ts';
import { NOSNIFF } from './security-headers.ts';
import { createDashboardRoutes } from './web/dashboard/index.ts';
import { createWebRoutes } from './web/index.ts';
import { createOutboxRoutes } from './web/outbox.ts';
import { createPaymentRoutes, PAYMENT_PATH_PREFIXES } from './web/payments.ts';
import { createWebSessions } from './web/session/index.ts';
import { createSettingsRoutes } from './web/settings/index.ts';

function requestIds(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  const requestId =
    typeof incoming === 'string' && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = requestId;
  markArrival(res);
  res.setHeader('X-Request-Id', requestId);
  res.setHeader(NOSNIFF.name, NOSNIFF.value);
  runInRequestScope({ requestId, onRateLimits: (readings) => writeRateLimitHeaders(res, readings) }, next);
}

/**
 * A router that owns a few path prefixes runs only for them: every other request (the hot reads under
 * /v1 and /api/mcp included) skips its route walk with a string comparison.
 */
function onlyUnder(prefixes: readonly string[], router: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const path = req.path;
    if (prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) router(req, res, next);
    else next();
  };
}

/** Paths served before the API's routers: the route table may hold nothing under them. */
const SERVED_BEFORE_THE_API = [
  '/metrics',
  ...OAUTH_PATH_PREFIXES,
  ...PAYMENT_PATH_PREFIXES,
  '/api/mcp/upload',
  '/api/mcp/docs',
];

/**
 * One express app for every surface: /graphql, /v1, /api/mcp and the web documents; with a RouteTable,
 * the rows of /v1 and /api/mcp are entered there too (see RouteTable).
 */
export function createApp(
  app: AppServices,
  table?: RouteTable,
  documents: PersistedDocumentStore = persistedDocumentsFor(getSchema(), app.config.GRAPHQL_DOCUMENTS_FILE),
): Express {
  const http = express();
  http.disable('x-powered-by');
  // API answers are not revalidated with ETags (drafts use revision numbers); hashing every body costs.
  http.set('etag', false);
  // X-Forwarded-* is read only from these peers (TRUST_PROXY); the authorization server follows the same rule.
  http.set('trust proxy', app.config.TRUST_PROXY);
  // Read by the REST 401 challenge: an agent starts its OAuth discovery from it.
  http.locals.resourceMetadata = resourceMetadataUrl(app.config);
  http.use(requestIds);
  attachMetrics(http, app.metrics);
  http.use(onlyUnder(['/metrics'], createMetricsRoute(app)));

  // Before every body parser: the authorization server reads its own bodies.
  http.use(onlyUnder(OAUTH_PATH_PREFIXES, createOAuthRoutes(app).router));
  const yoga = createGraphQLHandler(app);
  const graphql = [
    refuseUnreadableGraphQLBodies,
    parsedGraphQLBody(app),
    persistedDocumentPath(app, documents, { trustedOnly: app.config.GRAPHQL_TRUSTED_DOCUMENTS_ONLY }),
    measuredGraphQL(app, yoga),
  ];
  http.use(yoga.graphqlEndpoint, ...graphql);
  // GraphQL over HTTP is a hot path too: its two methods are rows of the table (OPTIONS, paths below
  // /graphql and the WebSocket upgrade stay with express and the HTTP server).
  for (const method of ['GET', 'POST'] as const)
    table?.add({ method, mount: yoga.graphqlEndpoint, path: '/', handlers: graphql });
  // Before /v1's JSON parser: payment events are verified over their raw bytes.
  http.use(onlyUnder(PAYMENT_PATH_PREFIXES, createPaymentRoutes(app)));
  http.use(REST_MOUNT, createRestApi(app, restRoutes, table));
  http.use(AGENT_MOUNT, originGuard(app.config));
  http.use('/api/mcp/upload', createUploadRoutes(app));
  http.use(AGENT_MOUNT, createAgentApi(app, {}, table));
  http.use('/api/files', createDownloadRoutes(app, app.storageSigningSecret));
  http.use(createWebRoutes(app));
  // One session for the settings pages and the dashboard, signed in on one page.
  const sessions = createWebSessions(app);
  http.use(sessions.router);
  http.use(createSettingsRoutes(app, sessions));
  http.use(onlyUnder(['/dashboard'], createDashboardRoutes(app, sessions)));
  http.use(createOutboxRoutes(app));

  http.use(bodyParserErrors);
  const unknownAgentRoute = app.metrics.request('agent_http', UNKNOWN_OPERATION);
  http.use((req: Request, res: Response) => {
    if (req.path.startsWith('/api/mcp/')) res.once('finish', () => observeRequest(unknownAgentRoute, res));
    sendError(res, {
      type: 'not_found_error',
      code: 'route_not_found',
      message: `No endpoint at ${req.method} ${req.path}.`,
    });
  });
  http.use(unexpectedErrors(app));
  return http;
}

/**
 * The HTTP server: the API's route table first (one lookup), then the express app for everything else.
 */
export function createHttpServer(app: AppServices, documents?: PersistedDocumentStore): Server {
  const table = new RouteTable(SERVED_BEFORE_THE_API, requestIds, [bodyParserErrors, unexpectedErrors(app)]);
  return table.createServer(createApp(app, table, documents));
}

/** What a stop cut at its deadline: requests without their answer, WebSocket clients closed hard. */
export interface Cut {
  requests: number;
  webSockets: number;
}

export interface RunningServer {
  server: Server;
  url: string;
  /**
   * Takes no more connections from now on: idle keep-alive connections close, every answer still to
   * come closes its connection, and WebSocket clients are asked to go (1001).
   */
  stopAccepting(): void;
  /** Lets the requests in flight finish until `deadline` (epoch ms); what is left then is cut. */
  close(deadline: number): Promise<Cut>;
}

export async function startServer(app: AppServices, port: number, host: string): Promise<RunningServer> {
  // One store of persisted documents for GraphQL over HTTP and over WebSocket.
  const documents = persistedDocumentsFor(getSchema(), app.config.GRAPHQL_DOCUMENTS_FILE);
  const server = createHttpServer(app, documents);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  // Attached once listening: a listen failure is the caller's to report, not the WebSocket server's.
  const webSocket = attachGraphQLWebSocket(app, server, documents);
  const requests = drainRequests(server);
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    stopAccepting: () => {
      requests.begin();
      webSocket.begin();
    },
    close: async (deadline) => {
      // Together: the server's close waits for the upgraded WebSocket connections as well.
      const [cutRequests, cutSockets] = await Promise.all([
        requests.finish(deadline),
        webSocket.finish(deadline),
      ]);
      return { requests: cutRequests, webSockets: cutSockets };
    },
  };
}
