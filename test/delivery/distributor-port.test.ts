import type { EntityManager } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { Delivery } from '../../src/domains/delivery/delivery.entity.ts';
import type {
  Distributor,
  QueueResult,
  RecordedDelivery,
  ReleaseDeliveryStatus,
  StoreStatus,
  TakedownResult,
} from '../../src/domains/delivery/distributor.ts';
import type { Release } from '../../src/domains/releases/release.entity.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

/** A distributor of the test's own: it records what it is asked and reports the statuses it is told. */
class TestDistributor implements Distributor {
  readonly calls: string[] = [];
  private readonly stores = new Map<string, StoreStatus[]>();

  async deliver(_em: EntityManager, release: Release): Promise<QueueResult> {
    const storeIds = release.distributionStoreIds ?? [];
    this.calls.push(`deliver ${storeIds.join(',')}`);
    this.stores.set(
      release.id,
      storeIds.map((storeId) => this.store(storeId, 'queued', 'Queued')),
    );
    return { queued: storeIds, skipped: [] };
  }

  async addStores(_em: EntityManager, release: Release, storeIds: readonly number[]): Promise<QueueResult> {
    this.calls.push(`addStores ${storeIds.join(',')}`);
    this.stores.get(release.id)?.push(...storeIds.map((storeId) => this.store(storeId, 'queued', 'Queued')));
    return { queued: [...storeIds], skipped: [] };
  }

  async takedown(
    _em: EntityManager,
    release: Release,
    storeIds: readonly number[] | 'all',
  ): Promise<TakedownResult> {
    this.calls.push(`takedown ${storeIds === 'all' ? 'all' : storeIds.join(',')}`);
    const requested =
      storeIds === 'all' ? (this.stores.get(release.id) ?? []).map((s) => s.storeId) : [...storeIds];
    return { requested, skipped: [] };
  }

  async status(recorded: RecordedDelivery): Promise<ReleaseDeliveryStatus> {
    const stores = this.stores.get(recorded.releaseId) ?? [];
    const live = stores.length > 0 && stores.every((s) => s.status === 'live');
    return { aggregateStatus: live ? 'distributed' : 'pending', pending: false, stores };
  }

  /** What the distributor's own systems would report back. */
  report(releaseId: string, storeId: number, url: string): void {
    const stores = this.stores.get(releaseId) ?? [];
    this.stores.set(
      releaseId,
      stores.map((s) =>
        s.storeId === storeId ? { ...s, status: 'live', statusText: 'Live', urlInStore: url } : s,
      ),
    );
  }

  private store(storeId: number, status: StoreStatus['status'], statusText: string): StoreStatus {
    return { storeId, storeName: `Store ${storeId}`, status, statusText, urlInStore: null };
  }
}

describe('the Distributor port', () => {
  const distributor = new TestDistributor();
  const app = useTestApp({}, { services: { distributor } });

  it('a second adapter plugged into the composition takes the release through submit, status, stores and takedown', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 1);
    body.release.distribution_store_ids = [301, 302];
    const submitted = await request(app().url, 'POST', '/v1/releases', { token: account.token, body });
    expect(submitted.status).toBe(201);
    const { releaseId } = submitted.body;
    expect(distributor.calls).toEqual(['deliver 301,302']);

    const status = async () =>
      (await request(app().url, 'GET', `/v1/releases/${releaseId}/status`, { token: account.token })).body;
    expect((await status()).stores.map((s: StoreStatus) => s.statusText)).toEqual(['Queued', 'Queued']);

    distributor.report(releaseId, 301, 'https://store.example/301');
    distributor.report(releaseId, 302, 'https://store.example/302');
    const live = await status();
    expect(live).toMatchObject({ aggregateStatus: 'distributed', pending: false });
    expect(live.stores.map((s: StoreStatus) => [s.storeId, s.statusText, s.urlInStore])).toEqual([
      [301, 'Live', 'https://store.example/301'],
      [302, 'Live', 'https://store.example/302'],
    ]);

    const added = await request(app().url, 'POST', `/v1/releases/${releaseId}/distribute`, {
      token: account.token,
      body: { store_ids: ['deezer'] },
    });
    expect(added.body.queued_store_ids).toEqual([306]);
    const takedown = await request(app().url, 'POST', `/v1/releases/${releaseId}/takedown`, {
      token: account.token,
      body: { store_ids: [301] },
    });
    expect(takedown.body.requested_store_ids).toEqual([301]);
    expect(distributor.calls).toEqual(['deliver 301,302', 'addStores 306', 'takedown 301']);

    // The sandbox was never asked: it would have written delivery rows.
    expect(await app().em().count(Delivery, { release: releaseId })).toBe(0);
  });
});
