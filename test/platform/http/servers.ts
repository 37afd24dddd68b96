import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestServer {
  host: string;
  port: number;
  /** `http://host:port<path>` */
  url(path?: string): string;
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer }[];
  connections: number;
  close(): Promise<void>;
}

export function listen(server: Server, host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** A real HTTP server on a loopback address; records every connection and request. */
export async function startServer(host: string, handler: Handler, port = 0): Promise<TestServer> {
  const state: TestServer = {
    host,
    port: 0,
    url: (path = '/') => `http://${host}:${state.port}${path}`,
    requests: [],
    connections: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      handler(req, res);
    });
  });
  server.on('connection', () => {
    state.connections++;
  });
  state.port = await listen(server, host, port);
  return state;
}

/** A port nothing listens on (briefly bound, then released). */
export async function freePort(host: string): Promise<number> {
  const server = createServer();
  const port = await listen(server, host);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
