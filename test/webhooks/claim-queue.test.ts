import { describe, expect, it } from 'vitest';
import type { ClaimedWebhookDelivery } from '../../src/domains/webhooks/claim.ts';
import { ClaimQueue } from '../../src/domains/webhooks/claim-queue.ts';
import { CLAIM_MARGIN_SECONDS } from '../../src/domains/webhooks/send-due.ts';

const row = (id: string): ClaimedWebhookDelivery => ({
  id,
  endpoint_id: 'e',
  url: 'https://hooks.test/x',
  secret_sealed: 's',
  previous_secret_sealed: null,
  previous_secret_expires_at: null,
  event_type: 'release.status_changed',
  payload: {},
  attempts: 0,
});

describe('claim queue', () => {
  it('hands rows out in claim order, only within the lease margin of their claim', () => {
    const queue = new ClaimQueue();
    const claimedAt = new Date('2026-03-01T10:00:00.000Z');
    const at = (seconds: number) => new Date(claimedAt.getTime() + seconds * 1000);
    queue.add([row('a'), row('b'), row('c')], claimedAt);
    queue.add([row('d')], at(30));
    expect(queue.size).toBe(4);
    expect(queue.next(at(1))?.id).toBe('a');
    // Past the margin, a row's POST could outlast its lease: b and c are dropped (left to their lease).
    expect(queue.next(at(CLAIM_MARGIN_SECONDS + 1))?.id).toBe('d');
    expect(queue.size).toBe(0);
    expect(queue.next(at(1))).toBeUndefined();
  });

  it('gives back every row not handed out', () => {
    const queue = new ClaimQueue();
    queue.add([row('a'), row('b')], new Date());
    queue.next(new Date());
    expect(queue.takeAll().map((r) => r.id)).toEqual(['b']);
    expect(queue.size).toBe(0);
  });
});
