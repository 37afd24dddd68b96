import { findStore } from '../catalog/index.ts';
import type { DeliveryStatus } from './delivery.entity.ts';

const STATUS_TEXT: Record<Exclude<DeliveryStatus, 'rejected'>, string> = {
  queued: 'Queued',
  in_inspection: 'In inspection',
  delivered: 'Delivered to DSP',
  live: 'Live',
  takedown_requested: 'Takedown requested',
  taken_down: 'Takedown delivered',
  failed: 'Delivery failed',
};

/** The per-store `statusText` of status reads and events. */
export function statusTextOf(status: DeliveryStatus, reason: string | null = null): string {
  if (status === 'rejected') return `Rejected: ${reason ?? 'no reason given'}`;
  return STATUS_TEXT[status];
}

export function storeNameOf(storeId: number): string {
  return findStore(storeId)?.name ?? `Store ${storeId}`;
}
