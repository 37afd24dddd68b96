import { randomUUID } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.ts';
import { accountWithToken } from '../../../test/support/factories.ts';
import {
  AuthenticationError,
  CreateWebhookEndpointDocument,
  CreditsDocument,
  CreditTransactionsDocument,
  DeleteWebhookEndpointDocument,
  MeDocument,
  NotFoundError,
  PerformanceSummaryDocument,
  PingWebhookEndpointDocument,
  QuoteReleaseDocument,
  RateLimitsDocument,
  ReleaseDocument,
  ReleaseJobDocument,
  ReleaseStatusDocument,
  ReleasesDocument,
  RotateWebhookSecretDocument,
  SaveDraftDocument,
  SubmitReleaseDocument,
  UpdateWebhookEndpointDocument,
  ValidationError,
  WebhookDeliveriesDocument,
  WebhookEndpointsDocument,
} from '../src/index.ts';
import { clientOf, graphqlSubmission, recordingFetch, spendRateLimit, uploadAssets } from './support.ts';

const bodiesOf = async (requests: Request[]) =>
  Promise.all(
    requests
      .filter((request) => new URL(request.url).pathname === '/graphql')
      .map(async (request) => JSON.parse(await request.text()) as Record<string, unknown>),
  );

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('@tributary/client: typed GraphQL documents against the real service', () => {
  // Webhook endpoints on loopback addresses (never delivered to here) need private addresses allowed.
  const app = useTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true' });

  it('sends documentId first; a server without the manifest gets the text by APQ once, then the id alone', async () => {
    const account = await accountWithToken(app().em());
    const { fetch, sent } = recordingFetch();
    const client = clientOf(app(), account.token, { fetch });
    const me = await client.request(MeDocument);
    expect(me.me).toMatchObject({ id: account.accountId, email: account.email });
    const [byId, registration] = await bodiesOf(sent);
    expect(byId).toEqual({ documentId: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), operationName: 'Me' });
    expect(registration).toMatchObject({
      query: expect.stringContaining('query Me'),
      extensions: { persistedQuery: { version: 1, sha256Hash: (byId!.documentId as string).slice(7) } },
    });

    sent.length = 0;
    expect((await client.request(MeDocument)).me.email).toBe(account.email);
    expect(await bodiesOf(sent)).toEqual([byId]);
  });

  it('when registering the text is rate limited, the client sends the plain text at once', async () => {
    const account = await accountWithToken(app().em());
    await spendRateLimit(app(), `rl:graphql-document-registration:account:${account.accountId}`, 30);
    const { fetch, sent } = recordingFetch();
    const retries: number[] = [];
    const client = clientOf(app(), account.token, {
      fetch,
      retry: { onRetry: ({ delayMs }) => retries.push(delayMs) },
    });
    expect((await client.request(WebhookEndpointsDocument)).webhookEndpoints).toEqual([]);
    const [byId, registration, plain] = await bodiesOf(sent);
    expect(byId).toMatchObject({ documentId: expect.any(String) });
    expect(registration).toMatchObject({ extensions: { persistedQuery: { version: 1 } } });
    expect(plain).toEqual({ query: registration!.query, operationName: 'WebhookEndpoints' });
    expect(retries).toEqual([]);
  });

  it('releases, drafts, quote and submit (keyed by the client), status and job', async () => {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const { fetch, sent } = recordingFetch();
    const client = clientOf(app(), account.token, { fetch });
    const assets = await uploadAssets(client);
    const input = graphqlSubmission(assets);

    const draft = await client.request(SaveDraftDocument, { input: { release: { title: 'Sketch' } } });
    expect(draft.saveDraft).toMatchObject({ releaseCreated: true, latest: { payload: { title: 'Sketch' } } });

    const quote = await client.request(QuoteReleaseDocument, {
      input: { release: input.release, tracks: input.tracks },
    });
    expect(quote.quoteRelease).toMatchObject({ submittable: true, blockers: [] });
    const blocked = await client.request(QuoteReleaseDocument, {
      input: { release: input.release, tracks: [{ ...input.tracks[0]!, writers: [] }] },
    });
    expect(blocked.quoteRelease.submittable).toBe(false);
    expect(blocked.quoteRelease.blockers[0]?.path).toMatch(/^tracks\[0\]\.writers/);

    sent.length = 0;
    const submitted = await client.request(SubmitReleaseDocument, { input });
    const { releaseId } = submitted.submitRelease;
    expect(submitted.submitRelease).toMatchObject({ status: 'SUBMITTED', alreadySubmitted: false });
    const [submitBody] = await bodiesOf(sent);
    const key = (submitBody!.variables as { input: { idempotencyKey?: string } }).input.idempotencyKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const again = await client.request(SubmitReleaseDocument, { input: { ...input, idempotencyKey: key } });
    expect(again.submitRelease).toMatchObject({ releaseId, creditsCharged: 0 });

    const page = await client.request(ReleasesDocument, { first: 10 });
    expect(page.releasesConnection.edges.map((edge) => edge.node.id)).toContain(releaseId);
    const release = await client.request(ReleaseDocument, { id: releaseId });
    expect(release.release).toMatchObject({
      id: releaseId,
      title: 'Harbour Lines',
      tracks: [{ title: 'Harbour Lines' }],
    });
    const status = await client.request(ReleaseStatusDocument, { releaseId });
    expect(status.releaseStatus).toMatchObject({ releaseId, aggregateStatus: 'QUEUED', pending: true });
    const job = await client.request(ReleaseJobDocument, { releaseId });
    expect(job.releaseJob).toMatchObject({ releaseId, state: 'QUEUED' });

    const credits = await client.request(CreditsDocument, { transactionLimit: 5 });
    expect(credits.credits.balance).toBe(10 - submitted.submitRelease.creditsCharged);
    const ledger = await client.request(CreditTransactionsDocument, { first: 10 });
    expect(ledger.creditTransactions.edges.map((edge) => edge.node.type)).toEqual(
      expect.arrayContaining(['GRANT', 'DEBIT']),
    );
    const summary = await client.request(PerformanceSummaryDocument, {
      fromDate: '2026-01-01',
      toDate: '2026-01-31',
    });
    expect(summary.performanceSummary).toMatchObject({ fromDate: '2026-01-01', releases: { total: 1 } });
  });

  it('webhook endpoints: create, list, update, deliveries, rotate, ping, delete; rate limits', async () => {
    const account = await accountWithToken(app().em());
    const client = clientOf(app(), account.token);
    const created = await client.request(CreateWebhookEndpointDocument, {
      input: { url: 'https://127.0.0.1:9/hook', eventTypes: ['RELEASE_STATUS_CHANGED'] },
    });
    const { id } = created.createWebhookEndpoint.endpoint;
    expect(created.createWebhookEndpoint.signingSecret).toMatch(/^whsec_/);
    const updated = await client.request(UpdateWebhookEndpointDocument, { input: { id, active: false } });
    expect(updated.updateWebhookEndpoint).toMatchObject({ id, active: false });
    expect((await client.request(WebhookEndpointsDocument)).webhookEndpoints.map((e) => e.id)).toEqual([id]);
    const deliveries = await client.request(WebhookDeliveriesDocument, { endpointId: id, first: 5 });
    expect(deliveries.webhookDeliveriesConnection.edges).toEqual([]);
    const rotated = await client.request(RotateWebhookSecretDocument, { id, graceSeconds: 60 });
    expect(rotated.rotateWebhookSecret.signingSecret).toMatch(/^whsec_/);
    expect(rotated.rotateWebhookSecret.signingSecret).not.toBe(created.createWebhookEndpoint.signingSecret);
    expect(rotated.rotateWebhookSecret.endpoint.previousSecretExpiresAt).not.toBeNull();
    // Nothing listens on port 9: the ping is recorded as a failed delivery of its own kind.
    const ping = await client.request(PingWebhookEndpointDocument, { id });
    expect(ping.pingWebhookEndpoint).toMatchObject({ endpointId: id, eventType: 'PING' });
    const limits = await client.request(RateLimitsDocument);
    expect(limits.rateLimits.map((limit) => limit.name)).toContain('cover-art');
    const deleted = await client.request(DeleteWebhookEndpointDocument, { id });
    expect(deleted.deleteWebhookEndpoint).toEqual({ id, deleted: true });
  });

  it("errors are typed from the errors' extensions, with the request id", async () => {
    const account = await accountWithToken(app().em());
    const client = clientOf(app(), account.token);
    const missing = await rejection(client.request(ReleaseDocument, { id: randomUUID() }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, httpStatus: 200, code: 'release_not_found' });
    expect((missing as NotFoundError).requestId).toEqual(expect.any(String));

    const invalid = await rejection(
      client.request(CreateWebhookEndpointDocument, { input: { url: 'http://example.com/hook' } }),
    );
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ type: 'invalid_request_error', field: expect.stringContaining('url') });

    const signedOut = await rejection(clientOf(app(), undefined).request(MeDocument));
    expect(signedOut).toBeInstanceOf(AuthenticationError);
  });

  it('a query over its rate limit is retried after the Retry-After the service gives, then answers', async () => {
    const scored = await accountWithToken(app().em());
    const partner = await accountWithToken(app().em(), { scopes: ['svc:fraud'] });
    const retries: { attempt: number; delayMs: number; code: string }[] = [];
    const client = clientOf(app(), partner.token, {
      retry: {
        onRetry: ({ attempt, delayMs, error }) => retries.push({ attempt, delayMs, code: error.code }),
      },
    });
    // Not one of the generated documents: sent as text, typed by hand.
    const FraudScore = parse(
      'query FraudScore($email: String!) { fraudScore(email: $email) { email score } }',
    ) as TypedDocumentNode<{ fraudScore: { email: string; score: number } }, { email: string }>;
    await spendRateLimit(app(), `rl:fraud-score-minute:${partner.accountId}`, 1.5);
    const started = Date.now();
    const answer = await client.request(FraudScore, { email: scored.email });
    expect(answer.fraudScore.email).toBe(scored.email);
    expect(retries).toEqual([{ attempt: 1, delayMs: expect.any(Number), code: 'rate_limited' }]);
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(retries[0]!.delayMs);
  });
});
