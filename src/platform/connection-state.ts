import type { Logger } from './logger.ts';

/**
 * Whether a long-lived connection (the database, Redis) is up, as its owner last saw it. An outage is
 * logged once when it starts and once when it ends, however many requests or retries meet it.
 */
export class ConnectionState {
  readonly #name: string;
  readonly #log: Logger;
  readonly #whileDown: string;
  #downSince: number | null = null;
  #failures = 0;

  /** `whileDown` says, in the log line that opens an outage, what the service does meanwhile. */
  constructor(name: string, log: Logger, whileDown: string) {
    this.#name = name;
    this.#log = log;
    this.#whileDown = whileDown;
  }

  get isUp(): boolean {
    return this.#downSince === null;
  }

  down(err?: unknown): void {
    this.#failures++;
    if (this.#downSince !== null) return;
    this.#downSince = Date.now();
    this.#log.warn({ err }, `${this.#name} unreachable: ${this.#whileDown}`);
  }

  up(): void {
    if (this.#downSince === null) return;
    const seconds = (Date.now() - this.#downSince) / 1000;
    this.#log.info(
      { downSeconds: Number(seconds.toFixed(1)), failures: this.#failures },
      `${this.#name} back`,
    );
    this.#downSince = null;
    this.#failures = 0;
  }
}

/** ioredis's wait before the next reconnection attempt: quick at first, then once a second. */
export function reconnectDelay(attempt: number): number {
  return Math.min(50 * 2 ** attempt, 1_000);
}
