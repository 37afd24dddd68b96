import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { Account } from '../accounts/account.entity.ts';

export const AUTO_RELOAD_STATUSES = [
  'succeeded',
  'declined',
  'authentication_required',
  'daily_cap_reached',
  'failed',
] as const;
export type AutoReloadStatus = (typeof AUTO_RELOAD_STATUSES)[number];

/**
 * An account's auto-reload: when a debit leaves the balance at or below `thresholdCredits`, a job
 * charges the saved card for `reloadCredits` (`reloadAmountCents`). `inFlightSince` marks the one
 * reload an account may have in flight.
 */
export const AutoReloadSetting = defineEntity({
  name: 'AutoReloadSetting',
  tableName: 'auto_reload_settings',
  properties: {
    account: () => p.oneToOne(Account).primary().deleteRule('cascade'),
    enabled: p.boolean(),
    thresholdCredits: p.integer(),
    packageId: p.string().length(50).nullable(),
    reloadCredits: p.integer(),
    reloadAmountCents: p.integer(),
    /** The saved card's provider payment-method id. */
    paymentMethodId: p.string().length(255).nullable(),
    lastStatus: p.enum(AUTO_RELOAD_STATUSES).nullable(),
    lastReason: p.string().length(500).nullable(),
    lastTriggeredAt: p.datetime().nullable(),
    inFlightSince: p.datetime().nullable(),
    updatedAt: columns.updatedAt(),
  },
});
export type AutoReloadSetting = InferEntity<typeof AutoReloadSetting>;
