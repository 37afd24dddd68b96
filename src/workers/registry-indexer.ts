import type { EntityManager } from '@mikro-orm/postgresql';
import { indexLiveRelease, unindexedLiveReleases } from '../domains/delivery/index.ts';
import { reportFailure } from '../platform/db/report-failure.ts';
import type { PubSub } from '../platform/events/pubsub.ts';
import type { Logger } from '../platform/logger.ts';
import type { ObjectStorage } from '../platform/storage/object-storage.ts';

/** How often releases that went live without being indexed (a missed event, a restart) are swept up. */
const SWEEP_EVERY_SECONDS = 300;

/**
 * Indexes the tracks of releases as they go live: on every `release.approved` event (not test events), and by a sweep
 * at start and every few minutes. One release at a time per process; indexing twice is harmless.
 */
export function startRegistryIndexer(deps: {
  pubsub: PubSub;
  em: () => EntityManager;
  storage: ObjectStorage;
  logger: Logger;
}): () => Promise<void> {
  const pending = new Set<string>();
  let running: Promise<void> | null = null;
  let stopped = false;
  const drain = async () => {
    while (!stopped && pending.size > 0) {
      const releaseId = pending.values().next().value as string;
      pending.delete(releaseId);
      try {
        const tracks = await indexLiveRelease(deps.em(), deps.storage, releaseId);
        deps.logger.info({ releaseId, tracks }, 'release indexed in the registry');
      } catch (err) {
        reportFailure(deps.logger, err, 'registry indexing failed (the sweep retries)', { releaseId });
      }
    }
  };
  const kick = () => {
    running ??= drain().finally(() => {
      running = null;
      if (pending.size > 0 && !stopped) kick();
    });
  };
  const sweep = () =>
    unindexedLiveReleases(deps.em())
      .then((ids) => {
        for (const id of ids) pending.add(id);
        kick();
      })
      .catch((err) => reportFailure(deps.logger, err, 'registry sweep'));
  const unsubscribe = deps.pubsub.subscribe((event) => {
    // A test event (the sandbox trigger's) says the release was approved without it having been.
    if (event.type !== 'release.approved' || !event.releaseId || event.payload.test === true) return;
    pending.add(event.releaseId);
    kick();
  });
  void sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_SECONDS * 1000);
  return async () => {
    stopped = true;
    unsubscribe();
    clearInterval(timer);
    await running;
  };
}
