import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { owningAccount } from './owning-account.ts';

export const SIGN_IN_EVENT_KINDS = ['failed', 'locked'] as const;
export type SignInEventKind = (typeof SIGN_IN_EVENT_KINDS)[number];

/**
 * A failed password sign-in, or the failure that locked the account, of an existing account: the
 * durable record the fraud score reads (the throttle's counters expire). No IP address is kept.
 * Pruned after SIGN_IN_EVENTS_KEPT_DAYS by the OAuth sweeper (docs/oauth.md).
 */
export const SignInEvent = defineEntity({
  name: 'SignInEvent',
  tableName: 'sign_in_events',
  indexes: [{ properties: ['account', 'occurredAt'] }],
  properties: {
    id: p.bigint().primary().autoincrement(),
    account: () => owningAccount(),
    kind: p.enum(() => SIGN_IN_EVENT_KINDS),
    occurredAt: p.datetime().index(),
  },
});

export type SignInEvent = InferEntity<typeof SignInEvent>;
