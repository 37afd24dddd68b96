import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { advanceDue } from '../../../src/domains/delivery/advance-due.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import { useTestApp } from '../../../test/support/app.ts';
import { accountWithToken } from '../../../test/support/factories.ts';
import {
  CreateWebhookEndpointDocument,
  CreditsDocument,
  CreditTransactionsDocument,
  DeleteWebhookEndpointDocument,
  MeDocument,
  NotFoundError,
  PerformanceSummaryDocument,
  PermissionError,
  persistedDocuments,
  QuoteReleaseDocument,
  RedeliverWebhookDocument,
  ReleaseDocument,
  ReleaseJobDocument,
  ReleaseStatusDocument,
  ReleasesDocument,
  SaveDraftDocument,
  SubmitReleaseDocument,
  UnavailableError,
  UpdateWebhookEndpointDocument,
  WebhookDeliveriesDocument,
  WebhookEndpointsDocument,
} from '../src/index.ts';
import { clientOf, graphqlSubmission, recordingFetch, uploadAssets } from './support.ts';

const MANIFEST = path.resolve(import.meta.dirname, '../src/generated/graphql/persisted-documents.json');

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('@tributary/client: a server that trusts the generated manifest only', () => {
  // Start-up validates and compiles every document of the manifest: one that did not validate would
  // stop it here. Cover art is off on this deployment, for the 503.
  const app = useTestApp({
    GRAPHQL_DOCUMENTS_FILE: MANIFEST,
    GRAPHQL_TRUSTED_DOCUMENTS_ONLY: 'true',
    COVER_ART_PROVIDER: 'none',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    SANDBOX_STEP_SECONDS: '300',
  });

  it("answers every family of the client's documents, each sent by its documentId alone", async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const { fetch, sent } = recordingFetch();
    const client = clientOf(app(), account.token, { fetch });
    const assets = await uploadAssets(client);
    const input = graphqlSubmission(assets, 'Paper Boats');

    expect((await client.request(MeDocument)).me.id).toBe(account.accountId);
    expect(
      (await client.request(SaveDraftDocument, { input: { release: { title: 'x' } } })).saveDraft,
    ).toMatchObject({
      releaseCreated: true,
    });
    expect((await client.request(QuoteReleaseDocument, { input })).quoteRelease.submittable).toBe(true);
    const { releaseId } = (await client.request(SubmitReleaseDocument, { input })).submitRelease;
    expect((await client.request(ReleasesDocument, {})).releasesConnection.edges).toHaveLength(2);
    expect((await client.request(ReleaseDocument, { id: releaseId })).release.title).toBe('Paper Boats');
    expect((await client.request(ReleaseStatusDocument, { releaseId })).releaseStatus.aggregateStatus).toBe(
      'QUEUED',
    );
    expect((await client.request(ReleaseJobDocument, { releaseId })).releaseJob.state).toBe('QUEUED');
    expect((await client.request(CreditsDocument)).credits.balance).toBeLessThan(10);
    expect(
      (await client.request(CreditTransactionsDocument, { first: 5 })).creditTransactions.edges.length,
    ).toBe(2);
    expect((await client.request(PerformanceSummaryDocument)).performanceSummary.releases.total).toBe(1);

    const created = await client.request(CreateWebhookEndpointDocument, {
      input: { url: 'https://127.0.0.1:9/h' },
    });
    const id = created.createWebhookEndpoint.endpoint.id;
    await client.request(UpdateWebhookEndpointDocument, { input: { id, description: 'ops' } });
    expect((await client.request(WebhookEndpointsDocument)).webhookEndpoints).toHaveLength(1);
    expect(
      (await client.request(WebhookDeliveriesDocument, { endpointId: id })).webhookDeliveriesConnection.edges,
    ).toEqual([]);
    // Run, and answered: there is no such delivery.
    const redelivery = await rejection(
      client.request(RedeliverWebhookDocument, { endpointId: id, deliveryId: randomUUID() }),
    );
    expect(redelivery).toBeInstanceOf(NotFoundError);
    await client.request(DeleteWebhookEndpointDocument, { id });

    const graphqlBodies = await Promise.all(
      sent
        .filter((request) => new URL(request.url).pathname === '/graphql')
        .map(async (request) => JSON.parse(await request.text()) as Record<string, unknown>),
    );
    expect(graphqlBodies.length).toBe(17);
    for (const body of graphqlBodies) {
      expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(['documentId', 'operationName']));
      expect(body.query).toBeUndefined();
      expect(persistedDocuments[body.documentId as string]).toEqual(expect.any(String));
    }
  });

  it('the releaseEvents subscription runs over WebSocket by its manifest text', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const client = clientOf(app(), account.token);
    const { releaseId } = (
      await client.request(SubmitReleaseDocument, { input: graphqlSubmission(await uploadAssets(client)) })
    ).submitRelease;
    const events = client.releaseEvents({ releaseId, after: '0' });
    const clock = new ManualClock(new Date());
    clock.advance(300);
    await advanceDue(app().em(), clock, app().services.storeAdapters);
    for await (const event of events) {
      if (event.__typename !== 'ReleaseStatusChanged') continue;
      expect(event).toMatchObject({ releaseId, previousStatus: 'QUEUED', status: 'PENDING' });
      break;
    }
    await client.close();
  });

  it('a document outside the manifest is a PermissionError; a capability turned off is an UnavailableError', async () => {
    const account = await accountWithToken(app().em());
    const client = clientOf(app(), account.token);
    const adHoc = parse('query Mine { me { email } }') as TypedDocumentNode<
      { me: { email: string } },
      Record<string, never>
    >;
    const refused = await rejection(client.request(adHoc));
    expect(refused).toBeInstanceOf(PermissionError);
    expect(refused).toMatchObject({ status: 403, code: 'trusted_documents_only' });

    const disabled = await rejection(client.rest.POST('/cover-art', { body: { prompt: 'dunes' } }));
    expect(disabled).toBeInstanceOf(UnavailableError);
    expect(disabled).toMatchObject({ status: 503, type: 'unavailable_error', code: 'cover_art_disabled' });
  });
});
