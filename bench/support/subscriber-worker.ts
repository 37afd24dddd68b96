/**
 * A light graphql-transport-ws client for many subscribers in one worker thread: raw `ws` sockets, one
 * subscription each, no graphql-ws client and no JSON parsing of `next` frames. Each event's number is
 * read straight from the frame's bytes (the `n` of the payload, `\"n\":<int>` inside the JSON text), and
 * its receipt time recorded. Negative numbers are warm-up events: once every socket has received one,
 * the worker says so; for a measured event it posts every socket's receipt time when the last arrives.
 */
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

export interface WorkerSetup {
  urls: string[];
  count: number;
  token: string;
  query: string;
}

export type WorkerMessage =
  | { kind: 'open'; failed: number }
  | { kind: 'warm' }
  | { kind: 'event'; n: number; times: Float64Array }
  | { kind: 'sample'; frame: string }
  | { kind: 'closed' };

const { urls, count, token, query } = workerData as WorkerSetup;
const port = parentPort!;
const now = () => performance.timeOrigin + performance.now();
const MARKER = Buffer.from('\\"n\\":');
const OPENING_AT_ONCE = 200;

const sockets: WebSocket[] = [];
const warmed = new Uint8Array(count);
let warmCount = 0;
const receipts = new Map<number, Float64Array>();
const receiptCounts = new Map<number, number>();
let sampled = false;

/** The integer after the first `\"n\":` in a frame, or null. */
function eventNumber(frame: Buffer): number | null {
  const at = frame.indexOf(MARKER);
  if (at < 0) return null;
  let i = at + MARKER.length;
  let sign = 1;
  if (frame[i] === 45) {
    sign = -1;
    i++;
  }
  let value = 0;
  for (; frame[i]! >= 48 && frame[i]! <= 57; i++) value = value * 10 + frame[i]! - 48;
  return sign * value;
}

function received(index: number, frame: Buffer): void {
  const at = now();
  const n = eventNumber(frame);
  if (n === null) return;
  if (!sampled) {
    sampled = true;
    port.postMessage({ kind: 'sample', frame: frame.toString() } satisfies WorkerMessage);
  }
  if (n < 0) {
    if (warmed[index] === 0) {
      warmed[index] = 1;
      if (++warmCount === count) port.postMessage({ kind: 'warm' } satisfies WorkerMessage);
    }
    return;
  }
  let times = receipts.get(n);
  if (!times) {
    times = new Float64Array(count);
    receipts.set(n, times);
  }
  times[index] = at;
  const seen = (receiptCounts.get(n) ?? 0) + 1;
  receiptCounts.set(n, seen);
  if (seen === count) {
    receipts.delete(n);
    receiptCounts.delete(n);
    port.postMessage({ kind: 'event', n, times } satisfies WorkerMessage, [times.buffer as ArrayBuffer]);
  }
}

function open(index: number): Promise<boolean> {
  const url = urls[index % urls.length]!;
  return new Promise((resolve) => {
    const socket = new WebSocket(url, 'graphql-transport-ws', {
      perMessageDeflate: false,
      skipUTF8Validation: true,
    });
    sockets[index] = socket;
    socket.on('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })),
    );
    socket.on('message', (data: Buffer) => {
      // Before the ack, the only frame is the ack itself; after it, `next` frames (and pings, none here).
      if (data.length < 40 && data.includes('connection_ack')) {
        socket.send(JSON.stringify({ id: String(index), type: 'subscribe', payload: { query } }));
        resolve(true);
        return;
      }
      received(index, data);
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}

let failed = 0;
for (let start = 0; start < count; start += OPENING_AT_ONCE) {
  const batch = Array.from({ length: Math.min(OPENING_AT_ONCE, count - start) }, (_, k) => open(start + k));
  failed += (await Promise.all(batch)).filter((ok) => !ok).length;
}
port.postMessage({ kind: 'open', failed } satisfies WorkerMessage);

port.on('message', async (message: { kind: 'close' }) => {
  if (message.kind !== 'close') return;
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === WebSocket.CLOSED) return resolve();
          socket.once('close', () => resolve());
          socket.terminate();
        }),
    ),
  );
  port.postMessage({ kind: 'closed' } satisfies WorkerMessage);
});
