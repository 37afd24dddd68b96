import { describe, expect, it } from 'vitest';
import { DEFAULT_STORE_IDS } from '../../src/domains/catalog/stores.ts';
import {
  instructSandbox,
  setSandboxOffline,
} from '../../src/domains/delivery/adapters/sandbox/sandbox-control.ts';
import { addStores } from '../../src/domains/delivery/add-stores.ts';
import { advanceDue } from '../../src/domains/delivery/advance-due.ts';
import { createDeliveryDistributor } from '../../src/domains/delivery/delivery-distributor.ts';
import { DistributorOfflineError } from '../../src/domains/delivery/distributor.ts';
import { enqueueRelease } from '../../src/domains/delivery/enqueue-release.ts';
import { readReleaseJob } from '../../src/domains/delivery/read-job.ts';
import { readRecordedDelivery } from '../../src/domains/delivery/recorded-delivery.ts';
import { requestTakedown } from '../../src/domains/delivery/request-takedown.ts';
import { storeStatuses } from '../../src/domains/delivery/store-statuses.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { ReleaseTrack } from '../../src/domains/releases/release-track.entity.ts';
import { hasValidCheckDigit, ISRC_PATTERN } from '../../src/domains/releases/rules/engine/identifiers.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { DSPONE_URL, submittedRelease, useDeliveryOrm } from './harness.ts';
import {
  brief,
  deliveriesOf,
  eventsOf,
  jobOf,
  lastEventId,
  nextDueAt,
  releaseOf,
  SANDBOX,
  STEP,
  statusesOf,
  tick,
} from './support.ts';
import { walkXml } from './xml-walker.ts';

/** The sandbox adapter as the application wires it (status reads need no clock). */
const sandbox = createDeliveryDistributor({ adapters: SANDBOX });

const url = (alias: string, releaseId: string) => `https://${alias}.sandbox.example/release/${releaseId}`;

describe('sandbox distributor', () => {
  const orm = useDeliveryOrm();

  async function enqueued(options: Parameters<typeof submittedRelease>[1] = {}) {
    const clock = new ManualClock();
    const fixture = await submittedRelease(orm(), options);
    const em = orm().em.fork();
    const release = await em.findOneOrFail(Release, { id: fixture.releaseId });
    const result = await enqueueRelease(em, release, clock, SANDBOX);
    return { ...fixture, clock, result };
  }

  /** A release walked to `distributed` (three steps), with its events so far. */
  async function distributed(options: Parameters<typeof submittedRelease>[1] = {}) {
    const ctx = await enqueued(options);
    for (let i = 0; i < 3; i += 1) await tick(orm(), ctx.clock);
    expect((await releaseOf(orm(), ctx.releaseId)).aggregateStatus).toBe('distributed');
    return ctx;
  }

  async function load(releaseId: string) {
    const em = orm().em.fork();
    return { em, release: await em.findOneOrFail(Release, { id: releaseId }) };
  }

  /** The status read of a release, as GET /releases/{id}/status makes it. */
  async function statusOf(release: { id: string }) {
    return storeStatuses(await recordedOf(release.id), sandbox);
  }

  /** What the status read is given: the release's recorded delivery. */
  async function recordedOf(releaseId: string) {
    const { em, release } = await load(releaseId);
    return readRecordedDelivery(em, SANDBOX, release.account.id, releaseId);
  }

  it('walks queued → pending → delivered → distributed with exactly the spec events', async () => {
    const { releaseId, clock, result } = await enqueued();
    expect(result.queued).toEqual([301, 302, 306]);
    expect((await jobOf(orm(), releaseId)).state).toBe('queued');

    // Not due yet: nothing moves, nothing is said.
    const early = await advanceDue(orm().em.fork(), clock, SANDBOX);
    expect(early.moved).toBe(0);
    expect(await eventsOf(orm(), releaseId)).toEqual([]);

    await tick(orm(), clock);
    expect(await statusesOf(orm(), releaseId)).toEqual({
      301: 'in_inspection',
      302: 'in_inspection',
      306: 'in_inspection',
    });
    expect((await jobOf(orm(), releaseId)).state).toBe('running');
    await tick(orm(), clock);
    await tick(orm(), clock);
    await tick(orm(), clock); // nothing left to do
    expect(await statusesOf(orm(), releaseId)).toEqual({ 301: 'live', 302: 'live', 306: 'live' });

    const events = await eventsOf(orm(), releaseId);
    expect(events.map((e) => [e.type, e.payload.previousStatus, e.payload.status])).toEqual([
      ['release.status_changed', 'queued', 'pending'],
      ['release.status_changed', 'pending', 'delivered'],
      ['release.status_changed', 'delivered', 'distributed'],
      ['release.approved', undefined, 'distributed'],
    ]);
    const [pending, delivered, live, approved] = events.map((e) => e.payload);
    expect(brief(pending!.storeStatuses)).toEqual([
      [301, 'In inspection', null],
      [302, 'In inspection', null],
      [306, 'In inspection', null],
    ]);
    expect(brief(delivered!.storeStatuses)).toEqual([
      [301, 'Delivered to DSP', null],
      [302, 'Delivered to DSP', null],
      [306, 'Delivered to DSP', null],
    ]);
    expect(live).toEqual({
      event: 'release.status_changed',
      releaseId,
      title: 'Lights over the Harbor',
      artist: 'Lena Marlow',
      previousStatus: 'delivered',
      status: 'distributed',
      storeStatuses: [
        { storeId: 301, storeName: 'Spotify', statusText: 'Live', urlInStore: url('spotify', releaseId) },
        {
          storeId: 302,
          storeName: 'Apple Music',
          statusText: 'Live',
          urlInStore: url('apple-music', releaseId),
        },
        { storeId: 306, storeName: 'Deezer', statusText: 'Live', urlInStore: url('deezer', releaseId) },
      ],
      artistProfiles: [
        {
          name: 'Lena Marlow',
          isPrimary: true,
          dsptwoArtistId: null,
          dsptwoArtistUrl: null,
          dsponeArtistId: '4Z8W4fKeB5YxbusRsdQVPb',
          dsponeArtistUri: 'dspone:artist:4Z8W4fKeB5YxbusRsdQVPb',
          dsponeArtistUrl: DSPONE_URL,
        },
        expect.objectContaining({ name: 'Theo Brandt', isPrimary: false, dsptwoArtistId: '1234567' }),
      ],
      occurredAt: '2026-01-05T09:03:00.000Z',
    });

    const release = await releaseOf(orm(), releaseId);
    expect(release.upc).toMatch(/^\d{12}$/);
    expect(hasValidCheckDigit(release.upc!)).toBe(true);
    const tracks = await orm()
      .em.fork()
      .find(ReleaseTrack, { release: releaseId }, { orderBy: { position: 'asc' } });
    expect(approved).toMatchObject({
      event: 'release.approved',
      releaseId,
      title: 'Lights over the Harbor',
      artist: 'Lena Marlow',
      upc: release.upc,
      tracks: [
        { trackNumber: 1, title: 'Song 1', isrc: tracks[0]!.isrc },
        { trackNumber: 2, title: 'Song 2', isrc: tracks[1]!.isrc },
      ],
      occurredAt: '2026-01-05T09:03:00.000Z',
    });
    expect(approved!.artistProfiles[0].name).toBe('Lena Marlow');
    for (const track of tracks) expect(track.isrc).toMatch(ISRC_PATTERN);

    const job = await readReleaseJob(orm().em.fork(), release);
    expect(job?.state).toBe('completed');
    expect(job?.steps.filter((s) => s.name.startsWith('store.')).length).toBe(9);
    expect(job?.errors).toEqual([]);
  });

  it('reports the queued response until the distributor has the release, then live statuses', async () => {
    const fixture = await submittedRelease(orm());
    const { em, release } = await load(fixture.releaseId);
    expect(await statusOf(release)).toEqual({
      aggregateStatus: 'queued',
      pending: true,
      stores: [],
    });
    const clock = new ManualClock();
    await enqueueRelease(em, release, clock, SANDBOX);
    const queued = await statusOf(release);
    expect(queued.aggregateStatus).toBe('queued');
    expect(queued.pending).toBe(true);
    expect(queued.stores.map((s) => s.statusText)).toEqual(['Queued', 'Queued', 'Queued']);
    await tick(orm(), clock);
    await tick(orm(), clock);
    await tick(orm(), clock);
    const live = await statusOf(await releaseOf(orm(), fixture.releaseId));
    expect(live).toEqual({
      aggregateStatus: 'distributed',
      pending: false,
      stores: [301, 302, 306].map((storeId) =>
        expect.objectContaining({
          storeId,
          statusText: 'Live',
          urlInStore: expect.stringContaining(fixture.releaseId),
        }),
      ),
    });
    expect(live.fallback).toBeUndefined();
  });

  it('assigns UPC and missing ISRCs, keeps given ones, stores an ERN per store when sent, idempotent', async () => {
    const { releaseId, result, clock } = await enqueued({
      storeIds: [301, 307, 319],
      trackCount: 3,
      isrcs: [null, 'USABC2600042', null],
    });
    expect(result.created).toBe(true);
    expect(result.queued).toEqual([301, 319]);
    expect(result.skipped).toEqual([{ storeId: 307, reason: 'partner_approval_required' }]);
    const release = await releaseOf(orm(), releaseId);
    const tracks = await orm()
      .em.fork()
      .find(ReleaseTrack, { release: releaseId }, { orderBy: { position: 'asc' } });
    expect(release.upc).toMatch(/^\d{12}$/);
    expect(hasValidCheckDigit(release.upc!)).toBe(true);
    expect(tracks.map((t) => t.isrc)).toEqual([
      expect.stringMatching(/^XXTRB26\d{5}$/),
      'USABC2600042',
      expect.stringMatching(/^XXTRB26\d{5}$/),
    ]);

    const queued = await deliveriesOf(orm(), releaseId);
    expect(
      queued.map((d) => [d.storeId, d.status, d.statusText, d.ugcPolicy, d.nextStepAt?.toISOString()]),
    ).toEqual([
      [301, 'queued', 'Queued', null, '2026-01-05T09:01:00.000Z'],
      [319, 'queued', 'Queued', 'monetize', '2026-01-05T09:01:00.000Z'],
    ]);
    // The message is built when the store is sent the release (its first step), in that step's
    // transaction; the submission's transaction only writes the schedule.
    expect(queued.map((d) => d.ddexMessage)).toEqual([null, null]);
    await tick(orm(), clock);
    const deliveries = await deliveriesOf(orm(), releaseId);
    expect(deliveries.map((d) => d.status)).toEqual(['in_inspection', 'in_inspection']);
    for (const delivery of deliveries) {
      const { texts } = walkXml(delivery.ddexMessage!);
      expect(texts.get('ern:NewReleaseMessage/ReleaseList/Release/ReleaseId/ICPN')).toEqual([release.upc]);
      expect(
        texts.get('ern:NewReleaseMessage/ResourceList/SoundRecording/SoundRecordingEdition/ResourceId/ISRC'),
      ).toEqual(tracks.map((t) => t.isrc));
    }
    expect(deliveries[1]!.ddexMessage).toContain('<RightsClaimPolicyType>Monetize</RightsClaimPolicyType>');
    expect(deliveries[1]!.ddexMessage).toContain('<FullName>TikTok</FullName>');

    const job = await jobOf(orm(), releaseId);
    expect(job.errors).toEqual([
      expect.objectContaining({ code: 'partner_approval_required', storeId: 307 }),
    ]);

    // A retry creates nothing and assigns the same codes.
    const { em, release: again } = await load(releaseId);
    const retry = await enqueueRelease(em, again, clock, SANDBOX);
    expect(retry.created).toBe(false);
    expect(await orm().em.fork().count(Release, { id: releaseId, upc: release.upc })).toBe(1);
    expect((await deliveriesOf(orm(), releaseId)).length).toBe(2);
  });

  it("enqueues inside the caller's transaction and rolls back with it", async () => {
    const { releaseId } = await submittedRelease(orm());
    const clock = new ManualClock();
    await expect(
      orm()
        .em.fork()
        .transactional(async (tem) => {
          const release = await tem.findOneOrFail(Release, { id: releaseId });
          expect((await enqueueRelease(tem, release, clock, SANDBOX)).queued).toEqual([301, 302, 306]);
          throw new Error('submission failed later');
        }),
    ).rejects.toThrow('submission failed later');
    expect(await deliveriesOf(orm(), releaseId)).toEqual([]);
    expect((await releaseOf(orm(), releaseId)).upc).toBeNull();
  });

  it('delivers to the default stores when the release selects none', async () => {
    const { releaseId, result } = await enqueued({ storeIds: null });
    expect(result.queued).toEqual([...DEFAULT_STORE_IDS]);
    expect(result.queued).not.toContain(307);
    expect((await deliveriesOf(orm(), releaseId)).length).toBe(DEFAULT_STORE_IDS.length);
  });

  it('added stores: stores_added, silence in inspection, then an equal-status event', async () => {
    const { releaseId, clock } = await distributed();
    const before = await lastEventId(orm(), releaseId);
    const { em, release } = await load(releaseId);
    const added = await addStores(em, release, [308, 307, 301, 311], clock, SANDBOX);
    expect(added).toEqual({
      queued: [308, 311],
      skipped: [
        { storeId: 301, reason: 'already_delivered' },
        { storeId: 307, reason: 'partner_approval_required' },
      ],
    });
    let events = await eventsOf(orm(), releaseId, before);
    expect(events.map((e) => e.type)).toEqual(['release.stores_added']);
    expect(events[0]!.payload).toMatchObject({
      event: 'release.stores_added',
      releaseId,
      title: 'Lights over the Harbor',
      artist: 'Lena Marlow',
      status: 'distributed',
      storeIds: [308, 311],
      storeStatuses: [
        { storeId: 308, storeName: 'Tidal', statusText: 'Queued' },
        { storeId: 311, storeName: 'SoundCloud', statusText: 'Queued' },
      ],
      skippedStoreIds: [
        { storeId: 301, reason: 'already_delivered', storeName: 'Spotify' },
        { storeId: 307, reason: 'partner_approval_required', storeName: 'YouTube Content ID' },
      ],
      occurredAt: clock.now().toISOString(),
    });
    expect(events[0]!.payload.artistProfiles[0]).toMatchObject({ name: 'Lena Marlow', isPrimary: true });

    await tick(orm(), clock); // in inspection: nothing is sent
    expect((await statusesOf(orm(), releaseId))[308]).toBe('in_inspection');
    expect(await eventsOf(orm(), releaseId, events[0]!.id)).toEqual([]);
    expect((await statusOf(await releaseOf(orm(), releaseId))).aggregateStatus).toBe('distributed');

    await tick(orm(), clock); // delivered: the added stores report on their own
    events = await eventsOf(orm(), releaseId, events[0]!.id);
    expect(events.map((e) => e.type)).toEqual(['release.status_changed']);
    expect(events[0]!.payload).toMatchObject({ previousStatus: 'distributed', status: 'distributed' });
    expect(events[0]!.payload.storeStatuses).toEqual([
      { storeId: 308, storeName: 'Tidal', statusText: 'Delivered to DSP' },
      { storeId: 311, storeName: 'SoundCloud', statusText: 'Delivered to DSP' },
    ]);

    await tick(orm(), clock); // live: already reported, the aggregate stays
    expect(await eventsOf(orm(), releaseId, events[0]!.id)).toEqual([]);
    expect((await statusesOf(orm(), releaseId))[311]).toBe('live');
    expect((await releaseOf(orm(), releaseId)).aggregateStatus).toBe('distributed');
    expect((await jobOf(orm(), releaseId)).state).toBe('completed');
  });

  it('partial takedown: silence while pending, then equal-status event + takedown_completed', async () => {
    const { releaseId, clock } = await distributed();
    const before = await lastEventId(orm(), releaseId);
    const { em, release } = await load(releaseId);
    expect(await requestTakedown(em, release, [302, 999], clock, SANDBOX)).toEqual({
      requested: [302],
      skipped: [{ storeId: 999, reason: 'not_delivered' }],
    });
    const pendingTakedown = await statusOf(await releaseOf(orm(), releaseId));
    expect(pendingTakedown.aggregateStatus).toBe('distributed');
    expect(pendingTakedown.stores.find((s) => s.storeId === 302)).toMatchObject({
      statusText: 'Takedown requested',
      urlInStore: null,
    });
    await tick(orm(), clock, STEP / 2); // not due yet
    expect(await eventsOf(orm(), releaseId, before)).toEqual([]);
    await tick(orm(), clock, STEP / 2);

    const events = await eventsOf(orm(), releaseId, before);
    expect(events.map((e) => [e.type, e.payload.previousStatus, e.payload.status])).toEqual([
      ['release.status_changed', 'distributed', 'distributed'],
      ['release.takedown_completed', undefined, 'distributed'],
    ]);
    expect(events[0]!.payload.storeStatuses).toEqual([
      { storeId: 302, storeName: 'Apple Music', statusText: 'Takedown delivered' },
    ]);
    expect(events[1]!.payload).toMatchObject({
      event: 'release.takedown_completed',
      releaseId,
      title: 'Lights over the Harbor',
      artist: 'Lena Marlow',
      scope: 'partial',
      storeIds: [302],
      storeStatuses: [{ storeId: 302, storeName: 'Apple Music', statusText: 'Takedown delivered' }],
      remainingStoreIds: [301, 306],
    });
    expect(events[1]!.payload.artistProfiles).toHaveLength(2);
    expect(await statusesOf(orm(), releaseId)).toEqual({ 301: 'live', 302: 'taken_down', 306: 'live' });

    // A second request for the same store is refused as already done.
    const again = await load(releaseId);
    expect((await requestTakedown(again.em, again.release, [302], clock, SANDBOX)).skipped).toEqual([
      { storeId: 302, reason: 'already_taken_down' },
    ]);
  });

  it('full takedown: aggregate taken_down in the aggregate shape, then takedown_completed', async () => {
    const { releaseId, clock } = await distributed();
    const before = await lastEventId(orm(), releaseId);
    const { em, release } = await load(releaseId);
    const distributor = createDeliveryDistributor({ adapters: SANDBOX, clock });
    expect(await distributor.takedown(em, release, 'all')).toEqual({
      requested: [301, 302, 306],
      skipped: [],
    });
    expect(await eventsOf(orm(), releaseId, before)).toEqual([]);
    await tick(orm(), clock);

    const events = await eventsOf(orm(), releaseId, before);
    expect(events.map((e) => [e.type, e.payload.previousStatus, e.payload.status])).toEqual([
      ['release.status_changed', 'distributed', 'taken_down'],
      ['release.takedown_completed', undefined, 'taken_down'],
    ]);
    expect(brief(events[0]!.payload.storeStatuses)).toEqual([
      [301, 'Takedown delivered', null],
      [302, 'Takedown delivered', null],
      [306, 'Takedown delivered', null],
    ]);
    expect(events[1]!.payload).toMatchObject({
      scope: 'full',
      storeIds: [301, 302, 306],
      remainingStoreIds: [],
    });
    expect((await releaseOf(orm(), releaseId)).aggregateStatus).toBe('taken_down');
    const status = await statusOf(await releaseOf(orm(), releaseId));
    expect(status.aggregateStatus).toBe('taken_down');
  });

  it('a store told to reject is rejected with its reason; the aggregate ignores it', async () => {
    const { releaseId, clock } = await enqueued({ storeIds: [301, 302, 306] });
    await instructSandbox(orm().em.fork(), releaseId, 302, {
      action: 'reject',
      reason: 'Cover art is blurry',
    });
    await instructSandbox(orm().em.fork(), releaseId, 306, { action: 'fail', reason: 'Ingestion timeout' });
    await tick(orm(), clock);
    await tick(orm(), clock);
    await tick(orm(), clock);

    const deliveries = await deliveriesOf(orm(), releaseId);
    expect(deliveries.map((d) => [d.storeId, d.status, d.statusText, d.reason])).toEqual([
      [301, 'live', 'Live', null],
      [302, 'rejected', 'Rejected: Cover art is blurry', 'Cover art is blurry'],
      [306, 'failed', 'Delivery failed', 'Ingestion timeout'],
    ]);
    const events = await eventsOf(orm(), releaseId);
    expect(events.map((e) => [e.type, e.payload.previousStatus, e.payload.status])).toEqual([
      ['release.status_changed', 'queued', 'pending'],
      ['release.status_changed', 'pending', 'delivered'],
      ['release.status_changed', 'delivered', 'distributed'],
      ['release.approved', undefined, 'distributed'],
    ]);
    expect(brief(events[0]!.payload.storeStatuses)).toEqual([
      [301, 'In inspection', null],
      [302, 'Rejected: Cover art is blurry', null],
      [306, 'Delivery failed', null],
    ]);
    const job = await jobOf(orm(), releaseId);
    expect(job.state).toBe('completed');
    expect(job.errors).toEqual([
      expect.objectContaining({
        code: 'store_rejected',
        storeId: 302,
        message: 'Apple Music: Cover art is blurry',
      }),
      expect.objectContaining({
        code: 'delivery_failed',
        storeId: 306,
        message: 'Deezer: Ingestion timeout',
      }),
    ]);
    await instructSandbox(orm().em.fork(), releaseId, 302, null);
    await instructSandbox(orm().em.fork(), releaseId, 306, null);

    // A rejected store can be distributed again once the problem is fixed.
    const { em, release } = await load(releaseId);
    expect((await addStores(em, release, [302], clock, SANDBOX)).queued).toEqual([302]);
  });

  it('a job whose every store fails is failed', async () => {
    const { releaseId, clock } = await enqueued({ storeIds: [301] });
    await instructSandbox(orm().em.fork(), releaseId, 301, { action: 'fail', reason: null });
    await tick(orm(), clock);
    await instructSandbox(orm().em.fork(), releaseId, 301, null);
    const job = await jobOf(orm(), releaseId);
    expect(job.state).toBe('failed');
    expect((await deliveriesOf(orm(), releaseId))[0]!.reason).toBe('The store did not accept the delivery.');
    expect((await releaseOf(orm(), releaseId)).aggregateStatus).toBe('pending');
  });

  it('a store withdrawn from the catalogue after the release was queued for it fails; the others move on', async () => {
    const { releaseId, clock } = await enqueued({ storeIds: [301, 302] });
    // As if store 302 had been withdrawn by a deploy: its queued row now names a store the catalogue lacks.
    await orm()
      .em.fork()
      .execute('update deliveries set store_id = 99999 where release_id = ? and store_id = 302', [releaseId]);
    for (let i = 0; i < 3; i += 1) await tick(orm(), clock);

    const deliveries = await deliveriesOf(orm(), releaseId);
    expect(deliveries.map((d) => [d.storeId, d.status, d.ddexMessage === null])).toEqual([
      [301, 'live', false],
      [99999, 'failed', true],
    ]);
    expect(deliveries[1]!.reason).toMatch(/^Store 99999 is no longer in the distribution catalogue/);
    expect((await releaseOf(orm(), releaseId)).aggregateStatus).toBe('distributed');
    const job = await jobOf(orm(), releaseId);
    expect(job.state).toBe('completed');
    expect(job.errors).toEqual([
      expect.objectContaining({
        code: 'delivery_failed',
        storeId: 99999,
        message: expect.stringMatching(/^Store 99999: Store 99999 is no longer/),
      }),
    ]);
  });

  it('offline: nothing moves, status reads fall back to the last known statuses', async () => {
    const { releaseId, clock } = await enqueued();
    await tick(orm(), clock);
    const before = await lastEventId(orm(), releaseId);
    await setSandboxOffline(orm().em.fork(), true, 'Distributor maintenance window');
    try {
      const result = await tick(orm(), clock);
      expect(result).toEqual({ moved: 0, releases: 0, offline: true });
      expect(await statusesOf(orm(), releaseId)).toEqual({
        301: 'in_inspection',
        302: 'in_inspection',
        306: 'in_inspection',
      });
      expect(await eventsOf(orm(), releaseId, before)).toEqual([]);

      const recorded = await recordedOf(releaseId);
      const status = await storeStatuses(recorded, sandbox);
      expect(status).toMatchObject({
        aggregateStatus: 'pending',
        pending: false,
        fallback: true,
        fallbackReason: 'Distributor maintenance window',
      });
      expect(status.stores.map((s) => s.statusText)).toEqual([
        'In inspection',
        'In inspection',
        'In inspection',
      ]);
      await expect(
        createDeliveryDistributor({ adapters: SANDBOX, clock }).status(recorded),
      ).rejects.toBeInstanceOf(DistributorOfflineError);
    } finally {
      await setSandboxOffline(orm().em.fork(), false);
    }
    await advanceDue(orm().em.fork(), clock, SANDBOX); // due since the offline tick
    expect(await statusesOf(orm(), releaseId)).toEqual({
      301: 'delivered',
      302: 'delivered',
      306: 'delivered',
    });
    expect((await storeStatuses(await recordedOf(releaseId), sandbox)).fallback).toBeUndefined();
  });

  it('two concurrent steps never move a store twice (SKIP LOCKED)', async () => {
    const releases = await Promise.all(
      Array.from({ length: 4 }, () => enqueued({ storeIds: [301, 302, 304, 306, 308] })),
    );
    const clock = new ManualClock();
    clock.advance(STEP);
    for (let round = 0; round < 3; round += 1) {
      await Promise.all([
        advanceDue(orm().em.fork(), clock, SANDBOX),
        advanceDue(orm().em.fork(), clock, SANDBOX),
        advanceDue(orm().em.fork(), clock, SANDBOX),
      ]);
      clock.advance(STEP);
    }
    for (const { releaseId } of releases) {
      expect(Object.values(await statusesOf(orm(), releaseId))).toEqual(Array(5).fill('live'));
      const job = await jobOf(orm(), releaseId);
      expect(job.steps.filter((s) => s.name.startsWith('store.')).length).toBe(15);
      const events = await eventsOf(orm(), releaseId);
      expect(events.map((e) => [e.type, e.payload.status])).toEqual([
        ['release.status_changed', 'pending'],
        ['release.status_changed', 'delivered'],
        ['release.status_changed', 'distributed'],
        ['release.approved', 'distributed'],
      ]);
    }
  });

  it('a release locked elsewhere is skipped, not waited for, and moves on the next call', async () => {
    const { releaseId, clock } = await enqueued({ storeIds: [301] });
    clock.advance(STEP);
    await orm()
      .em.fork()
      .transactional(async (tem) => {
        await tem.execute('select id from releases where id = ? for update', [releaseId]);
        await advanceDue(orm().em.fork(), clock, SANDBOX);
        expect(await statusesOf(orm(), releaseId)).toEqual({ 301: 'queued' });
      });
    await advanceDue(orm().em.fork(), clock, SANDBOX);
    expect(await statusesOf(orm(), releaseId)).toEqual({ 301: 'in_inspection' });
    const next = await nextDueAt(orm());
    expect(next).not.toBeNull();
    expect(next!.getTime()).toBeLessThanOrEqual(clock.now().getTime() + STEP * 1000);
  });

  it('refuses to distribute or take down a release that was never submitted', async () => {
    const clock = new ManualClock();
    const { releaseId } = await submittedRelease(orm(), { status: 'draft' });
    const { em, release } = await load(releaseId);
    await expect(addStores(em, release, [301], clock, SANDBOX)).rejects.toMatchObject({
      code: 'release_not_submitted',
      type: 'conflict_error',
    });
    await expect(requestTakedown(em, release, 'all', clock, SANDBOX)).rejects.toMatchObject({
      code: 'release_not_submitted',
    });
    await expect(addStores(em, release, [9999], clock, SANDBOX)).rejects.toMatchObject({
      code: 'store_not_available',
    });
  });
});
