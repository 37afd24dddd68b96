import { RELEASE_EVENT_TYPES } from '../delivery/index.ts';

/**
 * Every event kind webhooks can carry: the release events. A new endpoint subscribes to this list as it
 * is at creation and keeps it (stored), so an endpoint created before a kind was added must PATCH to
 * receive it.
 */
export const WEBHOOK_EVENT_TYPES = RELEASE_EVENT_TYPES;
