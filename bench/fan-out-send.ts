/**
 * `npm run bench -- fan-out-send`: what one subscriber costs the fan-out's synchronous send loop, the
 * kernel's loopback write included, for the two ways ws's public API can send a `next` frame: the
 * payload encoded once and each socket sent `Buffer.concat([prefix, payload, '}'])` as text (what
 * `facades/graphql/fan-out.ts` does), or each socket sent a string that ws encodes. CPU time of the loop
 * per socket (median over ROUNDS), which a neighbour's load bends less than wall time; both shown.
 * Clients are a child process that only reads. SOCKETS and ROUNDS tune it.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';

const SOCKETS = Number(process.env.SOCKETS ?? 5000);
const ROUNDS = Number(process.env.ROUNDS ?? 15);

if (process.argv[2] === 'clients') {
  let opened = 0;
  let received = 0;
  for (let i = 0; i < SOCKETS; i++) {
    const client = new WebSocket(process.argv[3]!);
    client.on('open', () => ++opened === SOCKETS && process.send?.('open'));
    client.on('message', () => ++received % SOCKETS === 0 && process.send?.('received'));
    client.on('error', (error) => {
      console.error(error);
      process.exit(1);
    });
  }
} else {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const subscribers: { socket: WebSocket; prefix: string; encodedPrefix: Buffer }[] = [];
  server.on('connection', (socket) => {
    const prefix = `{"id":${JSON.stringify(crypto.randomUUID())},"type":"next","payload":`;
    subscribers.push({ socket, prefix, encodedPrefix: Buffer.from(prefix) });
  });
  const { port } = server.address() as { port: number };
  const clients = fork(fileURLToPath(import.meta.url), ['clients', `ws://127.0.0.1:${port}`]);
  let heard: () => void = () => {};
  clients.on('message', () => heard());
  const nextMessage = () => new Promise<void>((resolve) => (heard = resolve));
  await nextMessage();

  /** A `releaseEvents` result as the bench subscribers select it, and one with 20 stores' statuses. */
  const small = { cursor: '123456', type: 'RELEASE_STATUS_CHANGED', payload: '{"n":17,"committedAt":0}' };
  const storeStatuses = Array.from({ length: 20 }, (_, i) => ({
    storeId: `store-${i}`,
    storeName: `Store ${i}`,
    statusText: 'Delivered to DSP',
    urlInStore: `https://store${i}.example/album/123456`,
  }));
  const large = { ...small, title: 'Déjà vu', artist: 'Artiste', payload: JSON.stringify({ storeStatuses }) };
  const END = Buffer.from('}');

  for (const event of [small, large]) {
    const payload = JSON.stringify({ data: { releaseEvents: event } });
    const encoded = Buffer.from(payload);
    const ways: Record<string, () => void> = {
      'shared Buffer, concat per socket': () => {
        for (const { socket, encodedPrefix } of subscribers)
          socket.send(Buffer.concat([encodedPrefix, encoded, END]), { binary: false });
      },
      'string per socket, encoded by ws': () => {
        for (const { socket, prefix } of subscribers) socket.send(`${prefix}${payload}}`);
      },
    };
    const names = Object.keys(ways);
    const cpu = new Map(names.map((name) => [name, [] as number[]]));
    const wall = new Map(names.map((name) => [name, [] as number[]]));
    for (let round = -2; round < ROUNDS; round++)
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const received = nextMessage();
        const cpuBefore = process.cpuUsage();
        const start = performance.now();
        ways[name]!();
        const elapsed = performance.now() - start;
        const used = process.cpuUsage(cpuBefore);
        await received;
        if (round < 0) continue; // warm-up
        cpu.get(name)!.push((used.user + used.system) / SOCKETS);
        wall.get(name)!.push((elapsed * 1000) / SOCKETS);
      }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.log(`${SOCKETS} sockets, payload ${encoded.length} B, ${ROUNDS} rounds, per socket (median):`);
    for (const name of names)
      console.log(
        `  ${name.padEnd(34)} CPU ${median(cpu.get(name)!).toFixed(2)} µs   wall ${median(wall.get(name)!).toFixed(2)} µs`,
      );
  }
  clients.kill();
  for (const { socket } of subscribers) socket.terminate();
  server.close();
}
