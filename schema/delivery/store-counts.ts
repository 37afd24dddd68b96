import { type StoreCounts, storeCountsOf } from '../../src/domains/delivery/index.ts';
import { batchLoads } from '../batch-loads.ts';
import { builder } from '../builder.ts';
import { ReleaseRef } from '../releases/release.ts';

/** A requested takedown moves nothing until the store confirms it, as in the aggregate status. */
const TAKEDOWN_ASKED = 'whose takedown is requested but not yet confirmed (`Takedown requested`)';

const StoreCountsRef = builder.objectRef<StoreCounts>('ReleaseStoreCounts').implement({
  description:
    "A release's stores counted by where each stands (the per-store rows of `releaseStatus`): every store " +
    'is in exactly one of live, inDelivery, failed and takenDown, which add up to total. All zero for a ' +
    'draft and for a release no store has been queued for yet.',
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'Every store the release has been queued for.' }),
    live: t.exposeInt('live', {
      description: `Stores where the release is live (statusText \`Live\`), and those ${TAKEDOWN_ASKED} that were live when it was asked.`,
    }),
    inDelivery: t.exposeInt('inDelivery', {
      description:
        'Stores on the way: queued (`Queued`), in inspection (`In inspection`) or delivered but not yet ' +
        `live (\`Delivered to DSP\`), and those ${TAKEDOWN_ASKED} that were still on the way when it was asked.`,
    }),
    failed: t.exposeInt('failed', {
      description:
        'Stores that rejected the release (`Rejected: <reason>`) or where its delivery failed (`Delivery failed`).',
    }),
    takenDown: t.exposeInt('takenDown', {
      description: 'Stores that confirmed a takedown (`Takedown delivered`).',
    }),
  }),
});

builder.objectField(ReleaseRef, 'storeCounts', (t) =>
  t.loadable({
    type: StoreCountsRef,
    description:
      'How many of its stores the release is live in, on the way to, failed at or taken down from. Loaded ' +
      'for a whole page of releases in one statement.',
    load: (releaseIds: string[], context) =>
      batchLoads(context, releaseIds, (ids) => storeCountsOf(context.em, ids)),
    resolve: (release) => release.id,
  }),
);
