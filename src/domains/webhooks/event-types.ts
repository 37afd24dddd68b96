/**
 * Every event kind webhooks can carry. A new endpoint subscribes to this list as it is at creation
 * and keeps it (stored), so an endpoint created before a kind was added must PATCH to receive it.
 */
export const WEBHOOK_EVENT_TYPES = [
  'release.status_changed',
  'release.approved',
  'release.stores_added',
  'release.takedown_completed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
