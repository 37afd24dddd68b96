import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxOnly } from '../../src/domains/delivery/adapters/sandbox/sandbox-adapter.ts';
import { setSandboxOffline } from '../../src/domains/delivery/adapters/sandbox/sandbox-control.ts';
import { advanceRelease } from '../../src/domains/delivery/advance-release.ts';
import { enqueueRelease } from '../../src/domains/delivery/enqueue-release.ts';
import { ADVANCE_QUEUE } from '../../src/domains/delivery/schedule.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { ManualClock, systemClock } from '../../src/platform/clock.ts';
import { insertInTransaction, type Jobs, startJobs } from '../../src/platform/jobs/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { startDeliveryRunner } from '../../src/workers/delivery-runner.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { waitFor } from '../support/wait.ts';
import { submittedRelease, useDeliveryOrm } from './harness.ts';
import { eventsOf, jobOf, releaseOf, statusesOf } from './support.ts';

async function jobsOf(orm: MikroORM, releaseId: string) {
  return orm.em
    .fork()
    .execute<{ state: string; singleton_key: string }[]>(
      "select state, singleton_key from pgboss.job where name = ? and data->>'releaseId' = ? order by created_on",
      [ADVANCE_QUEUE, releaseId],
    );
}

/** The spec's events for a release that reached `distributed` once. */
async function expectDeliveredOnce(orm: MikroORM, releaseId: string) {
  const events = await eventsOf(orm, releaseId);
  expect(
    events
      .filter((e) => e.type === 'release.status_changed')
      .map((e) => `${e.payload.previousStatus}→${e.payload.status}`),
  ).toEqual(['queued→pending', 'pending→delivered', 'delivered→distributed']);
  expect(events.filter((e) => e.type === 'release.approved')).toHaveLength(1);
}

describe('store delivery on pg-boss: the worker alone moves a release', () => {
  const app = useTestApp({ SANDBOX_STEP_SECONDS: '0.2' }, { background: true });
  const orm = () => app().services.orm;

  async function submit(storeIds: number[]) {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const body = validSubmission(await uploadAssets(app().url, account), 1);
    body.release.distribution_store_ids = storeIds;
    const submitted = await request(app().url, 'POST', '/v1/releases', { token: account.token, body });
    expect(submitted.status).toBe(201);
    return submitted.body.releaseId as string;
  }

  const distributed = (releaseId: string) =>
    waitFor(
      async () => (await releaseOf(orm(), releaseId)).aggregateStatus,
      (status) => status === 'distributed',
    );

  it('submitted → distributed by jobs, with exactly one of each event; no job left queued', async () => {
    const releaseId = await submit([301, 302]);
    // The submit enqueued its first wake-up with the release (the worker may already be at it).
    const [first] = await jobsOf(orm(), releaseId);
    expect(['created', 'active', 'completed']).toContain(first?.state);
    expect(await distributed(releaseId)).toBe('distributed');
    await expectDeliveredOnce(orm(), releaseId);
    const jobs = await waitFor(
      () => jobsOf(orm(), releaseId),
      (rows) => rows.every((j) => j.state === 'completed'),
    );
    // One wake-up per step (queued → in inspection → delivered → live), each for its due time.
    expect(jobs).toHaveLength(3);
    expect(jobs.every((j) => j.state === 'completed')).toBe(true);
    expect(new Set(jobs.map((j) => j.singleton_key)).size).toBe(3);
  });

  it('duplicate wake-ups never move a store twice', async () => {
    const releaseId = await submit([301, 302, 303]);
    const wakeUps = Array.from({ length: 12 }, (_, n) => ({
      data: { releaseId },
      singletonKey: `duplicate-${n}`,
      startAfter: new Date(Date.now() + n * 50),
    }));
    await app()
      .em()
      .transactional((tem) => insertInTransaction(tem, ADVANCE_QUEUE, wakeUps));
    expect(await distributed(releaseId)).toBe('distributed');
    await expectDeliveredOnce(orm(), releaseId);
    const steps = (await jobOf(orm(), releaseId)).steps.filter((s) => s.name.startsWith('store.'));
    expect(steps).toHaveLength(9);
  });

  it('offline: nothing moves while the jobs keep coming back; online again, delivery completes', async () => {
    await setSandboxOffline(app().em(), true, 'maintenance');
    let releaseId: string;
    try {
      releaseId = await submit([301]);
      await new Promise((r) => setTimeout(r, 1500));
      expect(await statusesOf(orm(), releaseId)).toEqual({ 301: 'queued' });
      // One job waits for the store to come back (being worked at this instant, on a busy machine).
      const waiting = (await jobsOf(orm(), releaseId)).filter((j) => ['created', 'active'].includes(j.state));
      expect(waiting).toHaveLength(1);
    } finally {
      await setSandboxOffline(app().em(), false);
    }
    expect(await distributed(releaseId)).toBe('distributed');
    await expectDeliveredOnce(orm(), releaseId);
  });
});

describe('resume: a worker that starts re-sends the wake-ups the rows call for', () => {
  const orm = useDeliveryOrm();
  let jobs: Jobs | undefined;
  let stopRunner: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await stopRunner?.();
    await jobs?.stop();
  });

  it('a release whose jobs are gone (retries exhausted, or scheduled before jobs) still completes', async () => {
    const { releaseId } = await submittedRelease(orm(), { storeIds: [301, 302] });
    const em = orm().em.fork();
    await enqueueRelease(
      em,
      await em.findOneOrFail(Release, { id: releaseId }),
      systemClock,
      sandboxOnly({ stepSeconds: 0.2 }),
    );
    await orm().em.fork().execute("delete from pgboss.job where data->>'releaseId' = ?", [releaseId]);
    await new Promise((r) => setTimeout(r, 500));
    expect(await statusesOf(orm(), releaseId)).toEqual({ 301: 'queued', 302: 'queued' });

    const logger = createLogger('silent');
    jobs = await startJobs({ url: String(orm().config.get('clientUrl')), logger });
    stopRunner = await startDeliveryRunner({
      boss: jobs.boss,
      em: () => orm().em.fork(),
      logger,
      adapters: sandboxOnly({ stepSeconds: 0.2 }),
    });
    const status = await waitFor(
      async () => (await releaseOf(orm(), releaseId)).aggregateStatus,
      (s) => s === 'distributed',
    );
    expect(status).toBe('distributed');
    await expectDeliveredOnce(orm(), releaseId);
  });

  it('a running worker re-sends lost wake-ups on its own, without a restart', async () => {
    await stopRunner?.();
    const logger = createLogger('silent');
    stopRunner = await startDeliveryRunner({
      boss: jobs!.boss,
      em: () => orm().em.fork(),
      logger,
      adapters: sandboxOnly({ stepSeconds: 0.2 }),
      resumeEverySeconds: 0.5,
    });
    const { releaseId } = await submittedRelease(orm(), { storeIds: [301] });
    const em = orm().em.fork();
    await enqueueRelease(
      em,
      await em.findOneOrFail(Release, { id: releaseId }),
      systemClock,
      sandboxOnly({ stepSeconds: 0.2 }),
    );
    await orm().em.fork().execute("delete from pgboss.job where data->>'releaseId' = ?", [releaseId]);
    const status = await waitFor(
      async () => (await releaseOf(orm(), releaseId)).aggregateStatus,
      (s) => s === 'distributed',
    );
    expect(status).toBe('distributed');
    await expectDeliveredOnce(orm(), releaseId);
  });
});

describe('two handlers on one release at once', () => {
  const orm = useDeliveryOrm();

  it('each store moves once: the second waits for the lock, then finds nothing due', async () => {
    const clock = new ManualClock();
    const { releaseId } = await submittedRelease(orm(), { storeIds: [301, 302, 306] });
    const em = orm().em.fork();
    await enqueueRelease(
      em,
      await em.findOneOrFail(Release, { id: releaseId }),
      clock,
      sandboxOnly({ stepSeconds: 60 }),
    );
    for (const expected of ['in_inspection', 'delivered', 'live']) {
      clock.advance(60);
      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          advanceRelease(orm().em.fork(), releaseId, clock, sandboxOnly({ stepSeconds: 60 })),
        ),
      );
      expect(results.map((r) => r.moved).sort()).toEqual([0, 0, 0, 3]);
      expect(Object.values(await statusesOf(orm(), releaseId))).toEqual([expected, expected, expected]);
    }
    expect((await jobOf(orm(), releaseId)).steps.filter((s) => s.name.startsWith('store.'))).toHaveLength(9);
    await expectDeliveredOnce(orm(), releaseId);
    // Each step scheduled the next wake-up once (the later handlers' sends were deduplicated).
    const keys = (await jobsOf(orm(), releaseId)).map((j) => j.singleton_key);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(3);
  });
});
