import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Hit {
  /** The request target (path and query). */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * An HTTPS receiver on 127.0.0.1 with a throwaway certificate (openssl CLI) whose file a server
 * process trusts through NODE_EXTRA_CA_CERTS — certificate checks stay on.
 */
export async function startHttpsReceiver(
  status: (pathname: string) => number = () => 200,
  headers: (pathname: string) => Record<string, string> = () => ({}),
  body: (pathname: string) => string = () => '',
) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tributary-receiver-'));
  const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
    ],
    { stdio: 'ignore' },
  );
  const hits: Hit[] = [];
  const server = createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hits.push({
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.timeOrigin + performance.now(),
      });
      const target = req.url ?? '/';
      res.writeHead(status(target), headers(target)).end(body(target));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    cert: readFileSync(certFile, 'utf8'),
    url: (pathname = '/hook') => `https://127.0.0.1:${port}${pathname}`,
    certFile,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // The key and certificate were for this receiver alone.
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
