import { findOwnedRelease } from '../../src/domains/releases/find-release.ts';
import { invalidRequest } from '../../src/platform/errors.ts';
import type { PublishedEvent } from '../../src/platform/events/pubsub.ts';
import { EventStream } from '../../src/platform/events/subscribe.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';

const ReleaseEventRef = builder.objectRef<PublishedEvent>('ReleaseEvent').implement({
  description: 'An event of one of your releases, as published (the same stream feeds webhooks).',
  fields: (t) => ({
    cursor: t.string({
      description: 'Pass it as `after` to resume right after this event.',
      resolve: (e) => String(e.cursor),
    }),
    id: t.string({ resolve: (e) => String(e.id) }),
    type: t.exposeString('type'),
    releaseId: t.exposeString('releaseId', { nullable: true }),
    occurredAt: t.string({ resolve: (e) => String(e.payload.occurredAt ?? e.createdAt) }),
    payload: t.field({
      type: 'JSON',
      description: 'The event body, as webhooks deliver it.',
      resolve: (e) => e.payload,
    }),
  }),
});

function parseCursor(after: string | null | undefined): number | null {
  if (after === null || after === undefined) return null;
  if (!/^\d{1,15}$/.test(after))
    throw invalidRequest('after must be a cursor from an earlier event.', [
      { path: 'after', message: 'not a cursor' },
    ]);
  return Number(after);
}

builder.subscriptionField('releaseEvents', (t) =>
  t.field({
    type: ReleaseEventRef,
    authScopes: MCP,
    description:
      'Events of your releases, live. With `after`, every event published after that cursor is replayed first, ' +
      'so a subscriber that reconnects misses nothing.',
    args: {
      releaseId: t.arg.string({ required: false }),
      types: t.arg.stringList({ required: false }),
      after: t.arg.string({ required: false }),
    },
    subscribe: async (_root, args, context) => {
      const { accountId } = requirePrincipal(context);
      const after = parseCursor(args.after);
      if (args.releaseId)
        await findOwnedRelease(context.em, accountId, args.releaseId, { field: 'releaseId' });
      return new EventStream({
        em: context.em,
        pubsub: context.app.pubsub,
        filter: { accountId, releaseId: args.releaseId ?? null, types: args.types ?? null },
        after,
      });
    },
    resolve: (event) => event,
  }),
);
