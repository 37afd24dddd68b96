import { RELEASE_EVENT_TYPES } from '../delivery/index.ts';

/**
 * Every event kind webhooks can carry: the release events. A new endpoint subscribes to this list as it
 * is at creation and keeps it (stored), so an endpoint created before a kind was added must PATCH to
 * receive it.
 */
export const WEBHOOK_EVENT_TYPES = RELEASE_EVENT_TYPES;

/** The event type of a test ping (no event of the stream; no endpoint subscribes to it). */
export const PING_EVENT_TYPE = 'ping';

/** What a delivery of the log can carry: a subscribable kind, or a test ping. */
export const WEBHOOK_DELIVERY_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, PING_EVENT_TYPE] as const;
