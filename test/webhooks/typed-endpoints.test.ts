import { expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';

const app = useTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' });

it('webhook endpoints take and give event types as the ReleaseEventType enum; REST keeps its strings and errors', async () => {
  const account = await accountWithToken(app().em());
  const created = await graphql(
    app().url,
    `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) {
      endpoint { id eventTypes } } }`,
    { input: { url: 'https://127.0.0.1:9/a', eventTypes: ['RELEASE_APPROVED'] } },
    account.token,
  );
  expect(created.body.errors).toBeUndefined();
  const endpoint = created.body.data.createWebhookEndpoint.endpoint;
  expect(endpoint.eventTypes).toEqual(['RELEASE_APPROVED']);
  const updated = await graphql(
    app().url,
    'mutation($input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $input) { eventTypes active } }',
    { input: { id: endpoint.id, eventTypes: ['RELEASE_STATUS_CHANGED', 'RELEASE_APPROVED'], active: false } },
    account.token,
  );
  expect(updated.body.data.updateWebhookEndpoint).toEqual({
    eventTypes: ['RELEASE_STATUS_CHANGED', 'RELEASE_APPROVED'],
    active: false,
  });
  const listed = await request(app().url, 'GET', '/v1/webhooks', { token: account.token });
  expect(JSON.stringify(listed.body)).toContain(
    '"event_types":["release.status_changed","release.approved"]',
  );
  const unknown = await request(app().url, 'POST', '/v1/webhooks', {
    token: account.token,
    body: { url: 'https://127.0.0.1:9/b', event_types: ['release.approved', 'release.exploded'] },
  });
  expect(unknown.status).toBe(400);
  expect(unknown.body.code).toBe('unknown_event_type');
  expect(unknown.body.details).toEqual([expect.objectContaining({ path: 'event_types[1]' })]);
});
