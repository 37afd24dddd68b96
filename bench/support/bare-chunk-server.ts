/** The floor for chunk uploads: a bare Node HTTP server streaming each chunk body to its own file. */
import { createWriteStream, mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = mkdtempSync(path.join(tmpdir(), 'bare-chunks-'));
const server = http.createServer(async (req, res) => {
  const index = Number(req.headers['x-chunk-index'] ?? 0);
  await pipeline(req, createWriteStream(path.join(dir, `${index}.chunk`)));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"ok":true}');
});
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
