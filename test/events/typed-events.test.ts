import { createClient } from 'graphql-ws';
import { expect, it } from 'vitest';
import WebSocket from 'ws';
import { advanceDue } from '../../src/domains/delivery/advance-due.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { waitFor } from '../support/wait.ts';

const app = useTestApp({ SANDBOX_STEP_SECONDS: '300' });

const SUBSCRIPTION = `subscription($id: ID, $types: [ReleaseEventType!]) {
  releaseEvents(releaseId: $id, types: $types, after: "0") {
    __typename type releaseId occurredAt title
    ... on ReleaseStatusChanged { previousStatus status storeStatuses { storeId statusText } }
    ... on ReleaseApproved { status upc tracks { trackNumber isrc } }
  }
}`;

it('a graphql-ws client receives typed events and selects their fields directly', async () => {
  const account = await accountWithToken(app().em(), { credits: 10 });
  const assets = await uploadAssets(app().url, account);
  const body = validSubmission(assets, 2);
  body.release.distribution_store_ids = [301];
  const { releaseId } = (await request(app().url, 'POST', '/v1/releases', { token: account.token, body }))
    .body;

  const client = createClient({
    url: `${app().url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${account.token}` },
    retryAttempts: 0,
  });
  const events: Record<string, any>[] = [];
  const errors: unknown[] = [];
  client.subscribe<{ releaseEvents: Record<string, any> }>(
    {
      query: SUBSCRIPTION,
      variables: { id: releaseId, types: ['RELEASE_STATUS_CHANGED', 'RELEASE_APPROVED'] },
    },
    {
      next: (v) => (v.data ? events.push(v.data.releaseEvents) : errors.push(v.errors)),
      error: (e) => errors.push(e),
      complete: () => {},
    },
  );
  const clock = new ManualClock(new Date());
  for (let step = 0; step < 3; step++) {
    clock.advance(300);
    await advanceDue(app().em(), clock, app().services.storeAdapters);
  }
  await waitFor(
    async () => events,
    (e) => e.some((x) => x.__typename === 'ReleaseApproved'),
    5000,
  );
  await client.dispose();

  expect(errors).toEqual([]);
  const moves = events.filter((e) => e.__typename === 'ReleaseStatusChanged');
  expect(moves.map((e) => [e.type, e.previousStatus, e.status])).toEqual([
    ['RELEASE_STATUS_CHANGED', 'QUEUED', 'PENDING'],
    ['RELEASE_STATUS_CHANGED', 'PENDING', 'DELIVERED'],
    ['RELEASE_STATUS_CHANGED', 'DELIVERED', 'DISTRIBUTED'],
  ]);
  expect(moves[2]?.storeStatuses).toEqual([{ storeId: 301, statusText: 'Live' }]);
  const approved = events.find((e) => e.__typename === 'ReleaseApproved')!;
  expect(approved).toMatchObject({
    type: 'RELEASE_APPROVED',
    releaseId,
    status: 'DISTRIBUTED',
    title: body.release.title,
  });
  expect(approved.upc).toMatch(/^\d{12,13}$/);
  expect(approved.tracks.map((t: { trackNumber: number }) => t.trackNumber)).toEqual([1, 2]);
  expect(approved.tracks.every((t: { isrc: string }) => /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(t.isrc))).toBe(
    true,
  );
  expect(new Date(approved.occurredAt).getTime()).toBeGreaterThan(0);
});
