import { describe, expect, it } from 'vitest';
import { aggregateOf, type DeliveryState } from '../../src/domains/delivery/aggregate-status.ts';
import type { DeliveryStatus } from '../../src/domains/delivery/delivery.entity.ts';

const at = (status: DeliveryStatus, extra: Partial<DeliveryState> = {}): DeliveryState => ({
  status,
  addedAfterDistribution: false,
  statusBeforeTakedown: null,
  ...extra,
});
const added = (status: DeliveryStatus) => at(status, { addedAfterDistribution: true });
const takedownFrom = (status: DeliveryStatus) => at('takedown_requested', { statusBeforeTakedown: status });

describe('aggregate status', () => {
  it.each([
    ['no deliveries', [], 'queued'],
    ['all queued', [at('queued'), at('queued')], 'queued'],
    ['one in inspection', [at('in_inspection'), at('queued')], 'pending'],
    ['all in inspection', [at('in_inspection'), at('in_inspection')], 'pending'],
    ['delivered and queued', [at('delivered'), at('queued')], 'pending'],
    ['delivered and in inspection', [at('delivered'), at('in_inspection')], 'pending'],
    ['all delivered', [at('delivered'), at('delivered')], 'delivered'],
    ['delivered and live', [at('delivered'), at('live')], 'delivered'],
    ['all live', [at('live'), at('live')], 'distributed'],
    ['live and a rejected store', [at('live'), at('rejected')], 'distributed'],
    ['delivered and a failed store', [at('delivered'), at('failed')], 'delivered'],
    ['every store rejected or failed', [at('rejected'), at('failed')], 'pending'],
    ['live with an added store in inspection', [at('live'), added('in_inspection')], 'distributed'],
    ['live with an added store delivered', [at('live'), added('delivered')], 'distributed'],
    ['live with an added store live', [at('live'), added('live')], 'distributed'],
    ['only added stores in flight', [at('rejected'), added('queued')], 'pending'],
    ['pending takedown of a live store', [takedownFrom('live'), at('live')], 'distributed'],
    ['pending takedown of every store', [takedownFrom('live'), takedownFrom('live')], 'distributed'],
    ['pending takedown of a store in inspection', [takedownFrom('in_inspection'), at('live')], 'pending'],
    ['partial takedown confirmed', [at('taken_down'), at('live')], 'distributed'],
    ['full takedown confirmed', [at('taken_down'), at('taken_down')], 'taken_down'],
    ['full takedown, one store rejected', [at('taken_down'), at('rejected')], 'taken_down'],
    ['full takedown, an added store in flight', [at('taken_down'), added('in_inspection')], 'taken_down'],
  ] as [string, DeliveryState[], string][])('%s', (_name, deliveries, expected) => {
    expect(aggregateOf(deliveries)).toBe(expected);
  });
});
