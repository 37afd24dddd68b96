import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxAdapter } from '../../src/domains/delivery/adapters/sandbox/sandbox-adapter.ts';
import type { Delivery } from '../../src/domains/delivery/delivery.entity.ts';
import { enqueueRelease } from '../../src/domains/delivery/enqueue-release.ts';
import { readRecordedDelivery } from '../../src/domains/delivery/recorded-delivery.ts';
import type {
  StepContext,
  StepOutcome,
  StoreAdapter,
  WorkContext,
} from '../../src/domains/delivery/store-adapter.ts';
import { type StoreAdapters, storeAdapters } from '../../src/domains/delivery/store-adapters.ts';
import { secondsAfter } from '../../src/domains/delivery/transaction.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { type Jobs, startJobs } from '../../src/platform/jobs/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startDeliveryRunner } from '../../src/workers/delivery-runner.ts';
import { waitFor } from '../support/wait.ts';
import { submittedRelease, useDeliveryOrm } from './harness.ts';
import { deliveriesOf, eventsOf, jobOf, releaseOf } from './support.ts';

const POLL_SECONDS = 0.2;
const FILES = ['audio', 'artwork', 'message', 'batch-complete'];

/**
 * A store of the test's own, connected the way a DDEX-over-SFTP store will be: its work uploads the
 * release's files outside any transaction and records each one; its steps read what the work recorded
 * and wait for the store's acknowledgement; an unreachable store is shown delayed, retried with
 * backoff, and failed with its reason after three attempts.
 */
class FileDropStore implements StoreAdapter {
  readonly name = 'file-drop';
  reachable = true;
  readonly uploaded = new Map<number, string[]>();
  readonly failedAttempts = new Map<number, number>();
  readonly acknowledgements = new Map<number, 'accepted' | { rejected: string }>();
  /** Whether each work ran inside a database transaction (it must not). */
  readonly workInTransaction: boolean[] = [];
  #delaysShown = new Map<number, number>();

  firstStepAt(now: Date): Date {
    return now;
  }

  async step({ now, release }: StepContext, due: readonly Readonly<Delivery>[]): Promise<StepOutcome[]> {
    return due.map((delivery) => {
      const { storeId } = delivery;
      if (delivery.status === 'takedown_requested') return { status: 'taken_down', nextStepAt: null };
      if (delivery.status === 'queued') {
        if (this.uploaded.get(storeId)?.length === FILES.length) {
          return {
            status: 'in_inspection',
            statusText: 'Awaiting acknowledgement',
            sentMessage: `<NewReleaseMessage release="${release.id}" store="${storeId}"/>`,
            nextStepAt: secondsAfter(now, POLL_SECONDS),
          };
        }
        const failures = this.failedAttempts.get(storeId) ?? 0;
        if (failures >= 3) {
          return {
            status: 'failed',
            reason: `Store unreachable after ${failures} attempts.`,
            nextStepAt: null,
          };
        }
        if (failures > (this.#delaysShown.get(storeId) ?? 0)) {
          this.#delaysShown.set(storeId, failures);
          return {
            statusText: `Delivery delayed: store unreachable (attempt ${failures})`,
            nextStepAt: secondsAfter(now, POLL_SECONDS * 2 ** failures),
          };
        }
        return { statusText: 'Uploading', work: true, nextStepAt: secondsAfter(now, 30) };
      }
      const acknowledgement = this.acknowledgements.get(storeId);
      if (!acknowledgement) {
        return { statusText: 'Awaiting acknowledgement', nextStepAt: secondsAfter(now, POLL_SECONDS) };
      }
      if (acknowledgement === 'accepted') {
        return { status: 'live', urlInStore: `https://store.example/${release.id}`, nextStepAt: null };
      }
      return { status: 'rejected', reason: acknowledgement.rejected, nextStepAt: null };
    });
  }

  async work({ em, delivery }: WorkContext): Promise<void> {
    this.workInTransaction.push(em.isInTransaction());
    const { storeId } = delivery;
    if (!this.reachable) {
      this.failedAttempts.set(storeId, (this.failedAttempts.get(storeId) ?? 0) + 1);
      return;
    }
    // Only what is missing: a resumed upload does not send a file twice.
    const done = this.uploaded.get(storeId) ?? [];
    this.uploaded.set(storeId, [...done, ...FILES.filter((file) => !done.includes(file))]);
  }
}

describe('store adapters side by side, chosen per store', () => {
  const orm = useDeliveryOrm();
  let jobs: Jobs | undefined;
  let stopRunner: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stopRunner?.();
    await jobs?.stop();
    stopRunner = undefined;
    jobs = undefined;
  });

  /** A release for the sandbox's 301 and the file-drop store's 302, handed over and worked by a runner. */
  async function delivering(store: FileDropStore) {
    const adapters = storeAdapters(
      createSandboxAdapter({ stepSeconds: POLL_SECONDS }),
      new Map([[302, store]]),
    );
    const { releaseId, accountId } = await submittedRelease(orm(), { storeIds: [301, 302] });
    const em = orm().em.fork();
    await em.transactional(async (tem) => {
      await enqueueRelease(tem, await tem.findOneOrFail(Release, { id: releaseId }), systemClock, adapters);
    });
    const logger = createLogger('silent');
    jobs = await startJobs({ url: String(orm().config.get('clientUrl')), logger });
    stopRunner = await startDeliveryRunner({ boss: jobs.boss, em: () => orm().em.fork(), logger, adapters });
    return { releaseId, accountId, adapters };
  }

  async function storeText(adapters: StoreAdapters, accountId: string, releaseId: string, storeId: number) {
    const recorded = await readRecordedDelivery(orm().em.fork(), adapters, accountId, releaseId);
    return recorded.stores.find((s) => s.storeId === storeId)?.statusText;
  }

  it('one release, two adapters: the work runs outside the transaction, the statuses and events are the core’s', async () => {
    const store = new FileDropStore();
    const { releaseId, accountId, adapters } = await delivering(store);

    const awaiting = await waitFor(
      () => storeText(adapters, accountId, releaseId, 302),
      (text) => text === 'Awaiting acknowledgement',
    );
    expect(awaiting).toBe('Awaiting acknowledgement');
    expect(store.uploaded.get(302)).toEqual(FILES);
    expect(store.workInTransaction).toEqual([false]);
    store.acknowledgements.set(302, 'accepted');

    const status = await waitFor(
      async () => (await releaseOf(orm(), releaseId)).aggregateStatus,
      (s) => s === 'distributed',
    );
    expect(status).toBe('distributed');
    const [sandbox, fileDrop] = await deliveriesOf(orm(), releaseId);
    expect(sandbox).toMatchObject({ storeId: 301, status: 'live', statusText: 'Live' });
    expect(sandbox!.ddexMessage).toContain('<ern:NewReleaseMessage');
    expect(fileDrop).toMatchObject({
      storeId: 302,
      status: 'live',
      statusText: 'Live',
      urlInStore: `https://store.example/${releaseId}`,
      ddexMessage: `<NewReleaseMessage release="${releaseId}" store="302"/>`,
    });
    const events = await eventsOf(orm(), releaseId);
    expect(events.filter((e) => e.type === 'release.approved')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'release.status_changed').at(-1)?.payload.status).toBe(
      'distributed',
    );
    expect(store.workInTransaction).toEqual([false]);
  });

  it('an unreachable store is shown delayed, retried with backoff, then failed with its reason', async () => {
    const store = new FileDropStore();
    store.reachable = false;
    const { releaseId, accountId, adapters } = await delivering(store);

    const delayed = await waitFor(
      () => storeText(adapters, accountId, releaseId, 302),
      (text) => text?.startsWith('Delivery delayed') ?? false,
    );
    expect(delayed).toBe('Delivery delayed: store unreachable (attempt 1)');
    const failed = await waitFor(
      async () => (await deliveriesOf(orm(), releaseId))[1]!.status,
      (s) => s === 'failed',
    );
    expect(failed).toBe('failed');
    expect(store.failedAttempts.get(302)).toBe(3);
    expect(await storeText(adapters, accountId, releaseId, 302)).toBe('Delivery failed');
    const job = await jobOf(orm(), releaseId);
    expect(job.errors).toContainEqual(
      expect.objectContaining({
        code: 'delivery_failed',
        storeId: 302,
        message: 'Apple Music: Store unreachable after 3 attempts.',
      }),
    );
    // The sandbox's store is unaffected: it goes live and alone makes the release distributed.
    const status = await waitFor(
      async () => (await releaseOf(orm(), releaseId)).aggregateStatus,
      (s) => s === 'distributed',
    );
    expect(status).toBe('distributed');
  });
});
