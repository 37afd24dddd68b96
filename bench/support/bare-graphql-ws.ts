/**
 * The fan-out floor: a WebSocket server speaking just enough of the graphql-transport-ws protocol for
 * `graphql-ws` clients (ack, subscribe), with no auth, no database and no GraphQL execution. A POST of
 * a JSON body sends it to every subscriber as a `next` message: the payload is serialised once and
 * each frame only adds its subscription id, the least any graphql-ws server must do per socket.
 */
import { createServer } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';

const subscriptions = new Map<WebSocket, string[]>();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const payload = `{"data":{"releaseEvents":${Buffer.concat(chunks).toString()}}}`;
    for (const [socket, ids] of subscriptions)
      for (const id of ids) socket.send(`{"id":${JSON.stringify(id)},"type":"next","payload":${payload}}`);
    res.end();
  });
});

const wss = new WebSocketServer({ server, path: '/graphql' });
wss.on('connection', (socket) => {
  subscriptions.set(socket, []);
  socket.on('close', () => subscriptions.delete(socket));
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; id?: string };
    if (message.type === 'connection_init') socket.send('{"type":"connection_ack"}');
    else if (message.type === 'subscribe' && message.id) subscriptions.get(socket)?.push(message.id);
    else if (message.type === 'ping') socket.send('{"type":"pong"}');
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(`listening on http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => {
  for (const socket of wss.clients) socket.terminate();
  server.close(() => process.exit(0));
});
