import type { WebSocket } from 'ws';

/** What ws keeps of a connection that this writer reads: its TCP socket and its frame sender. */
interface WsInternals {
  _socket?: { write(chunk: Buffer): boolean } | null;
  _sender?: { _state: number; _queue: unknown[] } | null;
}

const FIN_TEXT = 0x81;

/** The header of an unmasked, final text frame of `length` bytes (RFC 6455 §5.2), written at `into[0]`. */
function writeHeader(into: Buffer, length: number): number {
  into[0] = FIN_TEXT;
  if (length < 126) {
    into[1] = length;
    return 2;
  }
  if (length < 65_536) {
    into[1] = 126;
    into.writeUInt16BE(length, 2);
    return 4;
  }
  into[1] = 127;
  into.writeBigUInt64BE(BigInt(length), 2);
  return 10;
}

const headerLength = (length: number) => (length < 126 ? 2 : length < 65_536 ? 4 : 10);

/**
 * Sends `prefix + body + suffix` as one text message, `body` encoded once by the caller and shared by
 * every socket. When the connection has no extension (no permessage-deflate) and ws holds nothing back
 * (its sender idle, nothing queued), the whole frame, header included, goes to the TCP socket in one
 * write; ws would make two (header, then data) and encode a string per socket. Order with the frames
 * graphql-ws sends itself is kept: those go through the same TCP socket, synchronously, in call order.
 * Otherwise ws frames it.
 */
export function sendTextFrame(socket: WebSocket, prefix: Buffer, body: Buffer, suffix: Buffer): void {
  const length = prefix.length + body.length + suffix.length;
  const internals = socket as unknown as WsInternals;
  const sender = internals._sender;
  const tcp = internals._socket;
  const direct = socket.extensions === '' && tcp && sender?._state === 0 && sender._queue.length === 0;
  if (!direct) {
    socket.send(Buffer.concat([prefix, body, suffix], length), { binary: false });
    return;
  }
  const frame = Buffer.allocUnsafe(headerLength(length) + length);
  let at = writeHeader(frame, length);
  at += prefix.copy(frame, at);
  at += body.copy(frame, at);
  suffix.copy(frame, at);
  tcp.write(frame);
}
