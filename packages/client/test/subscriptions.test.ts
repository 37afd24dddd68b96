import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { advanceDue } from '../../../src/domains/delivery/advance-due.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { type TestApp, useTestApp } from '../../../test/support/app.ts';
import { accountWithToken } from '../../../test/support/factories.ts';
import {
  AuthenticationError,
  NotFoundError,
  type ReleaseEvent,
  ReleaseEventsDocument,
  TributaryError,
  TriggerSandboxEventDocument,
} from '../src/index.ts';
import { clientOf, submission, uploadAssets } from './support.ts';

/** A submitted release of a new account, and a clock for the sandbox distributor's steps. */
async function submittedRelease(app: TestApp) {
  const account = await accountWithToken(app.em(), { credits: 10 });
  const client = clientOf(app, account.token);
  const body = submission(await uploadAssets(client));
  const { data } = await client.rest.POST('/releases', { body });
  const clock = new ManualClock(new Date());
  // One step of the sandbox distributor (SANDBOX_STEP_SECONDS): queued → pending → delivered → …
  const step = async () => {
    clock.advance(300);
    await advanceDue(app.em(), clock, app.services.storeAdapters);
  };
  return { account, releaseId: data!.releaseId, step };
}

async function until<T>(read: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const moves = (events: ReleaseEvent[]) =>
  events.flatMap((event) =>
    event.__typename === 'ReleaseStatusChanged' ? [`${event.previousStatus}→${event.status}`] : [],
  );

describe('@tributary/client: live release status over graphql-ws', () => {
  const app = useTestApp({ SANDBOX_STEP_SECONDS: '300' });

  it('an async iterator of typed release events receives the status change a delivery step makes', async () => {
    const { account, releaseId, step } = await submittedRelease(app());
    const client = clientOf(app(), account.token);
    const events = client.releaseEvents({ releaseId, after: '0' });
    const seen: ReleaseEvent[] = [];
    const reading = (async () => {
      for await (const event of events) {
        seen.push(event);
        if (event.__typename === 'ReleaseStatusChanged') break;
      }
    })();
    await step();
    await reading;
    const change = seen.at(-1)!;
    expect(change).toMatchObject({
      __typename: 'ReleaseStatusChanged',
      type: 'RELEASE_STATUS_CHANGED',
      releaseId,
      previousStatus: 'QUEUED',
      status: 'PENDING',
    });
    if (change.__typename === 'ReleaseStatusChanged')
      expect(change.storeStatuses.map((store) => store.storeId).sort()).toEqual([
        301, 302, 304, 305, 306, 319,
      ]);
    await client.close();
  });

  it('callbacks too; after a dropped connection it resubscribes from the last cursor, missing and repeating nothing', async () => {
    const { account, releaseId, step } = await submittedRelease(app());
    const sockets: WebSocket[] = [];
    // The runtime's WebSocket, remembering each socket so the test can drop one.
    class RecordingWebSocket extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        sockets.push(this);
      }
    }
    const client = clientOf(app(), account.token, {
      subscriptions: { webSocketImpl: RecordingWebSocket, retryDelayMs: () => 50 },
    });
    const seen: ReleaseEvent[] = [];
    const failures: unknown[] = [];
    const stop = client.onReleaseEvent(
      { releaseId, after: '0' },
      { next: (event) => seen.push(event), error: (error) => failures.push(error) },
    );
    await step();
    await until(() => (moves(seen).length === 1 ? true : undefined), 'the first status change');
    // The connection drops (a network blip); the next step happens while it is down.
    sockets[0]!.close(4499, 'Terminated');
    await step();
    await until(() => (moves(seen).length === 2 ? true : undefined), 'the status change made while away');
    expect(sockets.length).toBe(2);
    expect(moves(seen)).toEqual(['QUEUED→PENDING', 'PENDING→DELIVERED']);
    expect(new Set(seen.map((event) => event.id)).size).toBe(seen.length);
    expect(failures).toEqual([]);
    stop();
    await client.close();
  });

  it('a sandbox test event (TriggerSandboxEventDocument, or POST /sandbox/events) arrives flagged test', async () => {
    const account = await accountWithToken(app().em());
    const client = clientOf(app(), account.token);
    const seen: ReleaseEvent[] = [];
    // From cursor 0: the new account's events from its first, however soon the subscription is up.
    const stop = client.onReleaseEvent(
      { after: '0' },
      { next: (event) => seen.push(event), error: () => {} },
    );
    const { triggerSandboxEvent: typed } = await client.request(TriggerSandboxEventDocument, {
      input: { type: 'RELEASE_APPROVED' },
    });
    expect(typed).toMatchObject({ type: 'RELEASE_APPROVED', sampleRelease: true, remaining: 9 });
    expect(JSON.parse(typed.payload)).toMatchObject({ event: 'release.approved', test: true });
    const { data: rest } = await client.rest.POST('/sandbox/events', {
      body: { type: 'release.stores_added', release_id: typed.releaseId },
    });
    expect(rest).toMatchObject({ type: 'release.stores_added', release_id: typed.releaseId });
    await until(() => (seen.length === 2 ? true : undefined), 'both test events');
    expect(seen.map((event) => [event.id, event.__typename, event.test])).toEqual([
      [typed.eventId, 'ReleaseApproved', true],
      [rest!.event_id, 'ReleaseStoresAdded', true],
    ]);
    stop();
    await client.close();
  });

  it('a refused token ends the subscription at once with an AuthenticationError (no reconnection)', async () => {
    const client = clientOf(app(), 'svc_pat_not-a-token');
    const started = Date.now();
    const failure = await (async () => {
      try {
        for await (const _ of client.releaseEvents()) break;
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(AuthenticationError);
    expect(Date.now() - started).toBeLessThan(1000);
    await client.close();
  });

  it("a subscription refused by the service ends with its typed error: another account's release", async () => {
    const account = await accountWithToken(app().em());
    const client = clientOf(app(), account.token);
    const failure = await (async () => {
      try {
        for await (const _ of client.subscribe(ReleaseEventsDocument, { releaseId: randomUUID() })) break;
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(TributaryError);
    expect(failure).toBeInstanceOf(NotFoundError);
    await client.close();
  });
});
