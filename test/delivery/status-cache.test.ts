import { describe, expect, it } from 'vitest';
import { setSandboxOffline } from '../../src/domains/delivery/adapters/sandbox/sandbox-control.ts';
import { advanceDue } from '../../src/domains/delivery/advance-due.ts';
import { readRecordedDelivery, recordedStatuses } from '../../src/domains/delivery/recorded-delivery.ts';
import { resumeDeliveries } from '../../src/domains/delivery/resume.ts';
import { dispatchEvents } from '../../src/domains/webhooks/dispatch.ts';
import { sendDueWebhooks } from '../../src/domains/webhooks/send-due.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { waitFor } from '../support/wait.ts';

const STEP = 300;

describe('the cached release status', () => {
  const app = useTestApp({ SANDBOX_STEP_SECONDS: String(STEP) });
  const clock = new ManualClock(new Date());

  async function step() {
    if (clock.now().getTime() < Date.now()) clock.set(new Date());
    clock.advance(STEP);
    await advanceDue(app().em(), clock, app().services.storeAdapters);
  }

  it('a status read right after a delivery step never shows the old state', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 1);
    body.release.distribution_store_ids = [301, 302, 306];
    const submitted = await request(app().url, 'POST', '/v1/releases', { token: account.token, body });
    const releaseId = submitted.body.releaseId as string;
    const status = async () =>
      (await request(app().url, 'GET', `/v1/releases/${releaseId}/status`, { token: account.token })).body;
    const truth = async () => {
      const { stores, aggregateStatus, pending } = recordedStatuses(
        await readRecordedDelivery(app().em(), app().services.storeAdapters, account.accountId, releaseId),
      );
      return { aggregateStatus, pending, stores: stores.map((s) => s.statusText) };
    };
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      // Twice: the second answer comes from the cache.
      await status();
      const answer = await status();
      const expected = await truth();
      expect({
        aggregateStatus: answer.aggregateStatus,
        pending: answer.pending,
        stores: answer.stores.map((s: { statusText: string }) => s.statusText),
      }).toEqual(expected);
      seen.add(answer.aggregateStatus);
      await step();
    }
    // The walk went through the states, so each read after a step saw that step.
    expect([...seen]).toEqual(expect.arrayContaining(['queued', 'pending', 'distributed']));

    // An outage switch is a commit too: the very next read falls back.
    await status();
    await setSandboxOffline(app().em(), true, 'maintenance');
    try {
      expect(await status()).toMatchObject({ fallback: true, fallbackReason: 'maintenance' });
    } finally {
      await setSandboxOffline(app().em(), false);
    }
    expect((await status()).fallback).toBe(false);
  });

  it('a cached status answers its owner only', async () => {
    const owner = await accountWithToken(app().em(), { credits: 10 });
    const other = await accountWithToken(app().em());
    const assets = await uploadAssets(app().url, owner);
    const submitted = await request(app().url, 'POST', '/v1/releases', {
      token: owner.token,
      body: validSubmission(assets, 1),
    });
    const path = `/v1/releases/${submitted.body.releaseId}/status`;
    expect((await request(app().url, 'GET', path, { token: owner.token })).status).toBe(200);
    const foreign = await request(app().url, 'GET', path, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('release_not_owned');
  });

  it('bookkeeping commits (webhooks, the resume sweep) keep the cache; every other commit clears it', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const submitted = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body: validSubmission(assets, 1),
    });
    const cache = app().services.releaseStatuses;
    const releaseId = submitted.body.releaseId as string;
    // A read that races any commit of this process is answered but not stored: read until one is.
    const stored = () =>
      waitFor(
        async () => {
          await request(app().url, 'GET', `/v1/releases/${releaseId}/status`, { token: account.token });
          return cache.size;
        },
        (size) => size > 0,
        5_000,
      );
    // The dispatcher polls several times a second; an empty round commits a claim transaction. Then
    // an event is dispatched, and the delivery runner's resume sweep re-sends its wake-up jobs (once a
    // minute in every worker). None clears the cache; the process's other background work does
    // whenever it commits, so the round is tried until one meets no such commit. A bookkeeping commit
    // that cleared the cache would fail every round.
    let resumed = 0;
    const keptThroughBookkeeping = await waitFor(
      async () => {
        expect(await stored()).toBeGreaterThan(0);
        await sendDueWebhooks(app().em(), {
          outbound: app().services.webhookOutbound,
          secretKey: new Uint8Array(32),
          now: new Date(),
          timeoutSeconds: 1,
        });
        const event = {
          cursor: 0,
          id: 0,
          accountId: account.accountId,
          releaseId,
          type: 'release.status_changed',
          payload: {},
          createdAt: new Date().toISOString(),
        };
        await dispatchEvents(app().em(), [event], new Date());
        resumed = await resumeDeliveries(app().em());
        return cache.size;
      },
      (size) => size > 0,
      10_000,
    );
    expect(keptThroughBookkeeping).toBeGreaterThan(0);
    // The sweep wrote a job (the submitted release has a step due), so its commit was not empty.
    expect(resumed).toBeGreaterThan(0);

    await app()
      .em()
      .transactional((tem) => tem.execute('select 1'));
    expect(cache.size).toBe(0);
  });
});
