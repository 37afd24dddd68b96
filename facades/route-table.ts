import { createServer, IncomingMessage, type RequestListener, type Server, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import FindMyWay from 'find-my-way';
import { match } from 'path-to-regexp';

/** One row of an API route table, as express would run it behind `app.use(mount, router)`. */
export interface TableRow {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Where the row's router is mounted (`/v1`, `/api/mcp`): handlers see the path below it. */
  mount: string;
  /** Express-style path below the mount, e.g. `/releases/:id/status`. */
  path: string;
  /** Run in order, express style (the body parser, a guard, then the route's handler). */
  handlers: RequestHandler[];
  /** Tried before the table's own error handlers when a handler calls `next(error)`. */
  errorHandlers?: ErrorRequestHandler[];
}

interface Entry {
  row: TableRow;
  /** The table's first handler, then the row's: built once, when the row is added. */
  chain: RequestHandler[];
  errorHandlers: ErrorRequestHandler[];
}

/**
 * The API's route tables (REST under /v1, the agent surface under /api/mcp) looked up once per request
 * in a radix tree (find-my-way), ahead of express: a request that names a row runs the row's handlers
 * directly, with the request and response express would give them (its prototypes, `locals`, the
 * mount's `baseUrl` and `url`, the path's parameters). Everything else goes to the express app, which
 * also routes every row (the same handlers) for the requests the table leaves to it: paths with a
 * percent-escape, a trailing slash or another letter case, absolute-form URLs. Express's walk through
 * the app's middleware and each router's layers cost more per request than the hot reads themselves.
 */
export class RouteTable {
  private readonly tree = FindMyWay();
  private readonly rows: TableRow[] = [];
  private readonly reserved: readonly string[];
  private readonly first: RequestHandler;
  private readonly errorHandlers: ErrorRequestHandler[];

  /**
   * @param reserved path prefixes that express serves before the API's routers (the authorization
   *   server, payment events, uploads): a row under one of them is refused, so that the table never
   *   answers a request express would have given to another router.
   * @param first what the app runs before any route (the request id), run first on every row.
   * @param errorHandlers the app's last error handlers (envelopes for body failures, then the masker).
   */
  constructor(reserved: readonly string[], first: RequestHandler, errorHandlers: ErrorRequestHandler[]) {
    this.reserved = reserved;
    this.first = first;
    this.errorHandlers = errorHandlers;
  }

  add(row: TableRow): void {
    const fullPath = `${row.mount}${row.path === '/' ? '' : row.path}` || '/';
    const owner = this.reserved.find((prefix) => fullPath === prefix || fullPath.startsWith(`${prefix}/`));
    if (owner)
      throw new Error(`Route table: ${row.method} ${fullPath} is under ${owner}, served before the API.`);
    // Express answers with the first row that matches; the tree prefers static segments. They agree
    // as long as no earlier row of the same method and mount matches a later row's path.
    const earlier = this.rows.find(
      (other) => other.method === row.method && other.mount === row.mount && match(other.path)(row.path),
    );
    if (earlier) {
      throw new Error(
        `Route table: ${row.method} ${row.mount}${row.path} is shadowed by ${earlier.mount}${earlier.path}, registered before it.`,
      );
    }
    this.rows.push(row);
    const entry: Entry = {
      row,
      chain: [this.first, ...row.handlers],
      errorHandlers: [...(row.errorHandlers ?? []), ...this.errorHandlers],
    };
    this.tree.on(row.method, fullPath, () => {}, entry);
  }

  /**
   * An HTTP server for `http` with the table ahead of it, whose requests and responses are born with
   * express's prototypes: a table row then needs no prototype change per request (V8 pays for each).
   */
  createServer(http: Express): Server {
    class ExpressRequest extends IncomingMessage {}
    Object.setPrototypeOf(ExpressRequest.prototype, http.request);
    class ExpressResponse<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {}
    Object.setPrototypeOf(ExpressResponse.prototype, http.response);
    return createServer(
      { IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse },
      this.listener(http, false),
    );
  }

  /**
   * Node's request listener: a table row runs here, anything else in `http`. `adoptPrototypes` false:
   * the server's requests and responses already have express's (see createServer).
   */
  listener(http: Express, adoptPrototypes = true): RequestListener {
    return (req: IncomingMessage, res: ServerResponse) => {
      const url = req.url ?? '';
      const query = url.indexOf('?');
      const path = query === -1 ? url : url.slice(0, query);
      const method = req.method === 'HEAD' ? 'GET' : (req.method ?? '');
      const found =
        path.charCodeAt(0) === 47 && !path.includes('%') ? this.tree.find(method as 'GET', path) : null;
      if (!found) {
        http(req, res);
        return;
      }
      const { row, chain, errorHandlers } = found.store as Entry;
      const request = req as Request;
      const response = res as Response;
      // What express's app.handle and a mounted router set up before a route's handlers run.
      request.res = response;
      response.req = request;
      if (adoptPrototypes) {
        Object.setPrototypeOf(request, http.request);
        Object.setPrototypeOf(response, http.response);
      }
      response.locals = Object.create(null);
      request.originalUrl = url;
      request.baseUrl = row.mount;
      const below = url.slice(row.mount.length);
      request.url = below.charCodeAt(0) === 47 ? below : `/${below}`;
      request.params = found.params as Record<string, string>;
      runChain(chain, errorHandlers, request, response);
    };
  }
}

/**
 * Express's contract for a chain of handlers: `next()` runs the next one, `next(error)` (or a throw, or
 * a rejected promise) the next error handler. A chain that ends without an answer is a programming
 * error, answered by the last error handler (the masker).
 */
function runChain(
  handlers: RequestHandler[],
  errorHandlers: ErrorRequestHandler[],
  req: Request,
  res: Response,
): void {
  let index = 0;
  let errorIndex = 0;
  const next: NextFunction = (error?: unknown) => {
    if (error === undefined || error === null) {
      const handler = handlers[index++];
      if (handler) call(() => handler(req, res, next));
      else next(new Error(`No handler answered ${req.method} ${req.originalUrl}.`));
      return;
    }
    const errorHandler = errorHandlers[errorIndex++];
    if (errorHandler) call(() => errorHandler(error, req, res, next));
    else if (!res.headersSent) res.status(500).end();
  };
  const call = (run: () => unknown) => {
    try {
      const returned = run();
      if (returned instanceof Promise)
        returned.catch((error: unknown) => next(error ?? new Error('rejected')));
    } catch (error) {
      next(error ?? new Error('thrown'));
    }
  };
  next();
}
