import { expect, it } from 'vitest';
import { appendEvent } from '../../src/platform/events/append-event.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { waitFor } from '../support/wait.ts';

const app = useTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' }, { background: true });

const PAGE = `query($id: ID!, $after: String) { webhookDeliveriesConnection(endpointId: $id, first: 2, after: $after) {
  edges { node { eventType eventId } } pageInfo { hasNextPage endCursor }
} }`;

it("webhookDeliveriesConnection pages an endpoint's log; another account's endpoint is not found", async () => {
  const account = await accountWithToken(app().em());
  const created = await request(app().url, 'POST', '/v1/webhooks', {
    token: account.token,
    body: { url: 'https://127.0.0.1:9/hook' },
  });
  const endpointId: string = created.body.endpoint.id;
  for (let n = 0; n < 3; n++) {
    await app()
      .em()
      .transactional((em) =>
        appendEvent(em, { accountId: account.accountId, type: 'release.status_changed', payload: { n } }),
      );
  }
  const first = await waitFor(
    async () => (await graphql(app().url, PAGE, { id: endpointId }, account.token)).body,
    // All three deliveries recorded (the dispatcher fans them out one by one): a full page and more.
    (body) =>
      (body.data?.webhookDeliveriesConnection.edges.length ?? 0) === 2 &&
      body.data?.webhookDeliveriesConnection.pageInfo.hasNextPage === true,
    15_000,
  );
  const page = first.data.webhookDeliveriesConnection;
  expect(page.pageInfo.hasNextPage).toBe(true);
  const rest = await graphql(
    app().url,
    PAGE,
    { id: endpointId, after: page.pageInfo.endCursor },
    account.token,
  );
  const all = [...page.edges, ...rest.body.data.webhookDeliveriesConnection.edges];
  expect(new Set(all.map((e: { node: { eventId: string } }) => e.node.eventId)).size).toBe(3);
  expect(
    all.every((e: { node: { eventType: string } }) => e.node.eventType === 'RELEASE_STATUS_CHANGED'),
  ).toBe(true);

  const stranger = await accountWithToken(app().em());
  const foreign = await graphql(app().url, PAGE, { id: endpointId }, stranger.token);
  expect(foreign.body.errors?.[0]?.extensions.type).toBe('not_found_error');
});
