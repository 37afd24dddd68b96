import type { ClaimedWebhookDelivery } from './claim.ts';
import { CLAIM_MARGIN_SECONDS } from './send-due.ts';

/**
 * Claimed deliveries waiting for a free slot, oldest claim first. A claim's lease lasts the request
 * timeout plus CLAIM_MARGIN_SECONDS, so a row is handed out only within that margin of its claim: sent
 * later, its POST could outlast the lease and another worker could send it at the same time. A row
 * past the margin is dropped here and sent again once its lease ends (at-least-once).
 */
export class ClaimQueue {
  #rows: { row: ClaimedWebhookDelivery; sendBy: number }[] = [];
  #head = 0;

  get size(): number {
    return this.#rows.length - this.#head;
  }

  add(rows: ClaimedWebhookDelivery[], claimedAt: Date): void {
    const sendBy = claimedAt.getTime() + CLAIM_MARGIN_SECONDS * 1000;
    for (const row of rows) this.#rows.push({ row, sendBy });
  }

  /** The next row still safe to send at `now`, if any. */
  next(now: Date): ClaimedWebhookDelivery | undefined {
    while (this.#head < this.#rows.length) {
      const entry = this.#rows[this.#head++]!;
      if (this.#head > 1024 && this.#head * 2 > this.#rows.length) {
        this.#rows = this.#rows.slice(this.#head);
        this.#head = 0;
      }
      if (entry.sendBy > now.getTime()) return entry.row;
    }
    return undefined;
  }

  takeAll(): ClaimedWebhookDelivery[] {
    const rows = this.#rows.slice(this.#head).map((entry) => entry.row);
    this.#rows = [];
    this.#head = 0;
    return rows;
  }
}
