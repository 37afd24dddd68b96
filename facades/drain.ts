import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Stops an HTTP server the way a load balancer expects: no new connections, answers in flight sent. */
export interface RequestDrain {
  /** Stops listening and closes idle connections; every answer from now on closes its connection. */
  begin(): void;
  /**
   * Waits until every request in flight is answered, or until `deadline` (epoch ms), when the
   * connections left are cut. Resolves with how many requests were cut, once every connection is gone.
   */
  finish(deadline: number): Promise<number>;
}

/**
 * Tracks a server's requests from their head to their answer (or a connection that closed first).
 * A request is in flight while its response is open, its body still arriving included.
 */
export function drainRequests(server: Server): RequestDrain {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let closed: Promise<void> | null = null;
  let allAnswered: (() => void) | null = null;

  const closeAfterAnswer = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  // Ahead of the app's listener, so that even an answer sent synchronously is seen.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (draining) closeAfterAnswer(res);
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (!draining) return;
      // An answer whose head went out before the drain kept its connection alive: closed once idle.
      server.closeIdleConnections();
      if (inFlight.size === 0) allAnswered?.();
    });
  });

  return {
    begin() {
      if (draining) return;
      draining = true;
      for (const res of inFlight) closeAfterAnswer(res);
      closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
    },
    async finish(deadline) {
      this.begin();
      if (inFlight.size > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
          allAnswered = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const cut = inFlight.size;
      // Past the answers (or the deadline): what is left is cut, connections whose request head never
      // finished arriving included.
      server.closeAllConnections();
      await closed;
      return cut;
    },
  };
}
