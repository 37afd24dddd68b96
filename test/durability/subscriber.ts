import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { ServerUrl } from './actors.ts';

const QUERY = 'subscription($after: String) { releaseEvents(after: $after) { cursor } }';

/**
 * A graphql-ws subscriber of one account's events that, whenever its connection drops (the server
 * killed), reconnects and resumes after the last cursor it received. It keeps every cursor received,
 * in order, so a check can compare them with the outbox.
 */
export class ResumingSubscriber {
  readonly cursors: number[] = [];
  /** Connections made after the first: each one resumed after the last cursor received. */
  resumes = 0;
  #connections = 0;
  readonly #url: ServerUrl;
  readonly #token: string;
  #client: Client | null = null;
  #stopped = false;
  #retry: NodeJS.Timeout | null = null;

  constructor(url: ServerUrl, token: string) {
    this.#url = url;
    this.#token = token;
  }

  start(): void {
    this.#connect();
  }

  get last(): number {
    return this.cursors.at(-1) ?? 0;
  }

  #connect(): void {
    if (this.#stopped) return;
    const client = createClient({
      url: `${this.#url().replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${this.#token}` },
      retryAttempts: 0,
      lazy: true,
      on: {
        connected: () => {
          this.#connections++;
          this.resumes = this.#connections - 1;
        },
      },
    });
    this.#client = client;
    const reconnect = () => {
      if (this.#client !== client || this.#stopped) return;
      this.#client = null;
      void client.dispose();
      this.#retry = setTimeout(() => this.#connect(), 200);
    };
    client.subscribe<{ releaseEvents: { cursor: string } }>(
      { query: QUERY, variables: { after: String(this.last) } },
      {
        next: (value) => {
          if (value.data) this.cursors.push(Number(value.data.releaseEvents.cursor));
        },
        error: reconnect,
        complete: reconnect,
      },
    );
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#retry) clearTimeout(this.#retry);
    await this.#client?.dispose();
  }
}
