/**
 * Golden answers of the REST and agent facades: a fixed scenario through every REST route, every agent
 * HTTP route, every resource and every tool, compared byte for byte (after ./golden/normalise.ts) with the
 * recorded file. The GraphQL schema may change shape underneath; these answers may not. A deliberate
 * change of an answer is recorded again with `UPDATE_GOLDEN=1 npx vitest run test/facades/golden.test.ts`
 * and reviewed in the diff of test/facades/golden/answers.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { restRoutes } from '../../facades/rest/routes/index.ts';
import { agentHttpRoutes } from '../../facades/rpc/http-routes.ts';
import { agentTools } from '../../facades/rpc/tools/index.ts';
import { type TestApp, useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { createNormaliser } from './golden/normalise.ts';

const GOLDEN = new URL('./golden/answers.json', import.meta.url);

interface Recorded {
  case: string;
  request: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

// Not the ETag: express derives it from the body bytes, which the comparison covers already.
const KEPT_HEADERS = [
  'content-type',
  'location',
  'allow',
  'retry-after',
  'www-authenticate',
  'cache-control',
];

/**
 * The scenario runs twice: as served (each facade document compiled by graphql-jit at start) and with
 * every operation in graphql-js's executor (GRAPHQL_COMPILED=false). Both must give the recorded bytes.
 */
const EXECUTORS: [string, Record<string, string>][] = [
  ['compiled, as served', {}],
  ["in graphql-js's executor (GRAPHQL_COMPILED=false)", { GRAPHQL_COMPILED: 'false' }],
];

for (const [executor, env] of EXECUTORS) {
  describe(executor, () => {
    const app = useTestApp({ OUTBOUND_ALLOW_PRIVATE: 'true', ...env });
    goldenScenario(app, env.GRAPHQL_COMPILED === undefined);
  });
}

function goldenScenario(app: () => TestApp, mayRecord: boolean) {
  it('REST and agent answers are byte-identical to the recorded ones', async () => {
    const one = await accountWithToken(app().em(), {
      credits: 30,
      email: 'golden@example.test',
      lastName: 'Artist1',
    });
    const broke = await accountWithToken(app().em(), { credits: 0, email: 'golden-broke@example.test' });
    const normalise = createNormaliser(app().url);
    const recorded: Recorded[] = [];
    const seen = new Set<string>();

    async function call(
      label: string,
      method: string,
      path: string,
      options: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
    ): Promise<any> {
      const headers: Record<string, string> = { ...options.headers };
      const token = options.token === undefined ? one.token : options.token;
      if (token) headers.authorization = `Bearer ${token}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${app().url}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        redirect: 'manual',
      });
      const text = await response.text();
      const kept = Object.fromEntries(
        KEPT_HEADERS.flatMap((name) => {
          const value = response.headers.get(name);
          return value === null ? [] : [[name, normalise(value)]];
        }),
      );
      recorded.push({
        case: label,
        request: normalise(
          `${method} ${path}${options.body === undefined ? '' : ` ${JSON.stringify(options.body)}`}`,
        ),
        status: response.status,
        headers: kept,
        body: normalise(text),
      });
      seen.add(label.split(' #')[0]!);
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    }

    const rpc = (label: string, method: string, params?: unknown, token: string | null = one.token) =>
      call(label, 'POST', '/api/mcp', {
        body: { jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) },
        token,
      });

    // Catalogue and account
    await call('GET /v1/status', 'GET', '/v1/status', { token: null });
    await call('GET /v1/me', 'GET', '/v1/me');
    await call('GET /v1/me #no token', 'GET', '/v1/me', { token: null });
    await call('GET /v1/me/credits', 'GET', '/v1/me/credits?transactions=5');
    await call('GET /v1/pricing', 'GET', '/v1/pricing', { token: null });
    await call('GET /v1/metadata-rules', 'GET', '/v1/metadata-rules', { token: null });
    await call('GET /v1/metadata-rules #markdown', 'GET', '/v1/metadata-rules', {
      token: null,
      headers: { accept: 'text/markdown' },
    });
    await call('GET /v1/release-schema', 'GET', '/v1/release-schema');
    await call('GET /v1/release-schema #no token', 'GET', '/v1/release-schema', { token: null });
    await call('GET /v1/distribution-stores', 'GET', '/v1/distribution-stores', { token: null });
    await call('GET /v1/language-script-codes', 'GET', '/v1/language-script-codes');

    // Files and uploads (the assets themselves go through POST /v1/files)
    const assets = await uploadAssets(app().url, one);
    await call('POST /v1/files', 'POST', '/v1/files', {
      body: { type: 'coverArt', file_name: 'tiny.png', data_base64: 'iVBORw0KGgo=' },
    });
    await call('POST /v1/files/from-url', 'POST', '/v1/files/from-url', {
      body: { type: 'audio', url: 'http://127.0.0.1:9/none.wav' },
    });
    const session = await call('POST /v1/uploads', 'POST', '/v1/uploads', {
      body: { type: 'audio', file_name: 'long.wav', file_size: 123456, file_type: 'audio/wav' },
    });
    await call('POST /v1/audio/ai-detection', 'POST', '/v1/audio/ai-detection', {
      body: { file_url: assets.audioUrl },
    });
    await call('POST /v1/audio/acr-check', 'POST', '/v1/audio/acr-check', {
      body: { file_url: assets.audioUrl },
    });
    await call('GET /v1/uploads/:id', 'GET', `/v1/uploads/${session.session_id ?? session.sessionId}`);
    await call('POST /v1/cover-art', 'POST', '/v1/cover-art', {
      body: { prompt: 'a calm ocean at sunset', file_name: 'golden-cover.png' },
    });
    await call('GET /v1/rate-limits', 'GET', '/v1/rate-limits');

    // Drafts, quotes, submissions, reads
    const submission = validSubmission(assets, 2);
    const draft = await call('POST /v1/drafts', 'POST', '/v1/drafts', {
      body: { release: submission.release },
    });
    await call('POST /v1/releases/quote', 'POST', '/v1/releases/quote', { body: submission });
    await call('POST /v1/releases/quote #blockers', 'POST', '/v1/releases/quote', {
      body: { release: { title: 'only a title' }, tracks: [{ title: 'x' }] },
    });
    const submitted = await call('POST /v1/releases', 'POST', '/v1/releases', {
      body: { ...submission, release_id: draft.releaseId },
      headers: { 'idempotency-key': 'golden-1' },
    });
    await call('POST /v1/releases #retry', 'POST', '/v1/releases', {
      body: { ...submission, release_id: draft.releaseId },
      headers: { 'idempotency-key': 'golden-1' },
    });
    await call('POST /v1/releases #insufficient credits', 'POST', '/v1/releases', {
      body: validSubmission(await uploadAssets(app().url, broke), 1),
      token: broke.token,
    });
    const releaseId: string = submitted.releaseId ?? draft.releaseId;
    await call('GET /v1/releases', 'GET', '/v1/releases?limit=5');
    await call('GET /v1/releases/:id', 'GET', `/v1/releases/${releaseId}`);
    await call('GET /v1/releases/:id #unknown', 'GET', '/v1/releases/3f2b6c1e-8d4a-4c1b-9e2f-0a1b2c3d4e5f');
    await call('GET /v1/releases/:id/status', 'GET', `/v1/releases/${releaseId}/status`);
    await call('GET /v1/releases/:id/job', 'GET', `/v1/releases/${releaseId}/job`);
    await call('PUT /v1/releases/:id/stores', 'PUT', `/v1/releases/${releaseId}/stores`, {
      body: { store_ids: ['spotify', 'deezer'] },
    });
    await call('GET /v1/releases/:id/ugc-policies', 'GET', `/v1/releases/${releaseId}/ugc-policies`);
    await call('PUT /v1/releases/:id/ugc-policies', 'PUT', `/v1/releases/${releaseId}/ugc-policies`, {
      body: { policies: { 307: 'track' } },
    });
    await call('POST /v1/releases/:id/distribute', 'POST', `/v1/releases/${releaseId}/distribute`, {
      body: { store_ids: ['tiktok'] },
    });
    await call('POST /v1/releases/:id/takedown', 'POST', `/v1/releases/${releaseId}/takedown`, {
      body: { store_ids: ['deezer'] },
    });

    // Webhooks
    const endpoint = await call('POST /v1/webhooks', 'POST', '/v1/webhooks', {
      body: { url: 'https://127.0.0.1:9/hook', description: 'golden' },
    });
    const endpointId: string = endpoint.id ?? endpoint.endpoint?.id;
    await call('GET /v1/webhooks', 'GET', '/v1/webhooks');
    await call('PATCH /v1/webhooks/:id', 'PATCH', `/v1/webhooks/${endpointId}`, {
      body: { description: 'renamed' },
    });
    await call('GET /v1/webhooks/:id/deliveries', 'GET', `/v1/webhooks/${endpointId}/deliveries`);
    await call(
      'POST /v1/webhooks/:id/deliveries/:deliveryId/redeliver',
      'POST',
      `/v1/webhooks/${endpointId}/deliveries/3f2b6c1e-8d4a-4c1b-9e2f-0a1b2c3d4e5f/redeliver`,
    );
    await call('POST /v1/webhooks/:id/rotate-secret', 'POST', `/v1/webhooks/${endpointId}/rotate-secret`, {
      body: { grace_seconds: 3600 },
    });
    // Nothing listens on port 9: the ping is recorded failed (its latency normalised).
    await call('POST /v1/webhooks/:id/ping', 'POST', `/v1/webhooks/${endpointId}/ping`);
    await call('DELETE /v1/webhooks/:id', 'DELETE', `/v1/webhooks/${endpointId}`);

    // Agent HTTP routes
    const agentDraft = await call('POST /api/mcp/draft', 'POST', '/api/mcp/draft', {
      body: { release: { title: 'Agent draft' }, conversationId: 'golden-conversation' },
    });
    await call('POST /api/mcp/submit', 'POST', '/api/mcp/submit', {
      body: { ...validSubmission(assets, 1), releaseId: agentDraft.releaseId },
    });
    await call('GET /api/mcp/releases', 'GET', '/api/mcp/releases?limit=5');
    await call('GET /api/mcp/releases/:id/metadata', 'GET', `/api/mcp/releases/${releaseId}/metadata`);
    await call('GET /api/mcp/releases/:id/status', 'GET', `/api/mcp/releases/${releaseId}/status`);
    await call('GET /api/mcp/release-jobs/:id', 'GET', `/api/mcp/release-jobs/${releaseId}`);
    await call('GET /api/mcp/docs', 'GET', '/api/mcp/docs', { token: null });
    await call('GET /api/mcp/docs/metadata-rules', 'GET', '/api/mcp/docs/metadata-rules', { token: null });

    // JSON-RPC: protocol, resources, every tool
    // Buying credits (after the other cases, so their recorded ids keep their numbers)
    await call('POST /v1/credits/checkout', 'POST', '/v1/credits/checkout', {
      body: { package_id: 'credits_25', ui_mode: 'hosted', success_path: '/checkout/complete' },
    });
    await call('POST /v1/credits/checkout #embedded custom', 'POST', '/v1/credits/checkout', {
      body: { credits: 12 },
    });
    await call('POST /v1/credits/checkout #open redirect', 'POST', '/v1/credits/checkout', {
      body: { credits: 12, success_path: 'https://evil.example/' },
    });
    await call('GET /v1/me/autoreload', 'GET', '/v1/me/autoreload');
    await call('POST /v1/me/autoreload', 'POST', '/v1/me/autoreload', {
      body: { enabled: false, package_id: 'credits_25', threshold_credits: 2 },
    });
    await call('POST /v1/me/autoreload #no saved card', 'POST', '/v1/me/autoreload', {
      body: { enabled: true },
    });
    await rpc('rpc initialize', 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'golden', version: '1' },
    });
    await rpc('rpc tools/list', 'tools/list');
    const resources = await rpc('rpc resources/list', 'resources/list');
    for (const resource of resources.result.resources as { uri: string }[]) {
      await rpc(`rpc resources/read ${resource.uri}`, 'resources/read', { uri: resource.uri });
    }
    const toolArguments: Record<string, Record<string, unknown>> = {
      get_profile: {},
      get_credits: { transactionLimit: 3 },
      create_credit_checkout_session: { packageId: 'credits_10', uiMode: 'hosted' },
      set_autoreload: { enabled: false, quantity: 5 },
      get_pricing: {},
      get_distribution_stores: {},
      get_metadata_rules: {},
      get_release_schema: {},
      get_release_status: { releaseId },
      get_release_job: { releaseId },
      upload_file: { type: 'coverArt', file_name: 'tiny.png', data_base64: 'iVBORw0KGgo=' },
      upload_file_from_url: { type: 'audio', url: 'http://127.0.0.1:9/none.wav' },
      detect_audio_ai: { fileUrl: assets.audioUrl },
      detect_audio_pex_search_acr: { fileUrl: assets.audioUrl },
      prepare_local_file_upload: { type: 'audio', file_name: 'big.wav', file_size: 99999 },
      generate_cover_art: { prompt: 'neon city at midnight', fileName: 'golden-tool-cover.png' },
      save_draft: { release: { title: 'Tool draft' } },
      quote_release: { release: submission.release, tracks: submission.tracks },
      submit_release: { release: { title: 'incomplete' }, tracks: [] },
      list_releases: { limit: 3 },
      get_release_metadata: { releaseId },
      set_distribution_stores: { releaseId, storeIds: ['spotify'] },
      add_release_stores: { releaseId, storeIds: ['youtube-music'] },
      takedown_release: { releaseId, storeIds: ['spotify'] },
      get_ugc_policies: { releaseId },
      set_ugc_policies: { releaseId, policies: { 310: 'monitor' } },
      get_performance_summary: { fromDate: '2026-01-01', toDate: '2026-01-03', topReleasesLimit: 3 },
      get_release_performance: {
        releaseId,
        fromDate: '2026-01-01',
        toDate: '2026-01-03',
        includeTracks: true,
      },
      // The endpoint is deleted by now: both answer not found.
      ping_webhook: { endpointId },
      rotate_webhook_secret: { endpointId, graceSeconds: 60 },
      trigger_sandbox_event: { type: 'release.status_changed', releaseId },
    };
    for (const tool of agentTools) {
      await rpc(`rpc tools/call ${tool.name}`, 'tools/call', {
        name: tool.name,
        arguments: toolArguments[tool.name] ?? {},
      });
    }
    await rpc('rpc tools/call #unknown tool', 'tools/call', { name: 'get_profil', arguments: {} });

    // Analytics (fixed past windows: nothing ingested, so every figure is zero)
    await call(
      'GET /v1/analytics/summary',
      'GET',
      '/v1/analytics/summary?from_date=2026-01-01&to_date=2026-01-03',
    );
    await call(
      'GET /v1/analytics/summary #bad window',
      'GET',
      '/v1/analytics/summary?from_date=2026-01-03&to_date=2026-01-01',
    );
    await call(
      'GET /v1/releases/:id/analytics',
      'GET',
      `/v1/releases/${releaseId}/analytics?from_date=2026-01-01&to_date=2026-01-03&include_tracks=true`,
    );

    // Fraud score
    const fraud = await accountWithToken(app().em(), {
      scopes: ['svc:fraud'],
      email: 'golden-fraud@example.test',
    });
    await call('POST /v1/fraud/score', 'POST', '/v1/fraud/score', {
      token: fraud.token,
      body: { email: 'golden@example.test' },
    });
    await call('POST /v1/fraud/score #no scope', 'POST', '/v1/fraud/score', {
      body: { email: 'golden@example.test' },
    });

    // Partner endpoints (public): an unknown client_id is refused before anything is written.
    const partnerBody = {
      email: 'golden-partner@example.test',
      password: 'a long enough passphrase',
      client_id: 'tbp_not_allowlisted',
      redirect_uri: 'https://partner.example/callback',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    };
    await call('POST /v1/accounts', 'POST', '/v1/accounts', { token: null, body: partnerBody });
    await call('POST /v1/auth/authorize', 'POST', '/v1/auth/authorize', { token: null, body: partnerBody });
    await call(
      'POST /v1/agent-auth/verified-email/challenge',
      'POST',
      '/v1/agent-auth/verified-email/challenge',
      {
        token: null,
        body: { email: 'golden-nobody@example.test', client_name: 'Golden Agent' },
      },
    );
    await call('POST /v1/agent-auth/verified-email/claim', 'POST', '/v1/agent-auth/verified-email/claim', {
      token: null,
      body: { email: 'golden-nobody@example.test', code: '12345678' },
    });

    // Sandbox test events (last: the first one makes the account's sandbox sample release).
    await call('POST /v1/sandbox/events', 'POST', '/v1/sandbox/events', {
      body: { type: 'release.approved' },
    });
    await call('POST /v1/sandbox/events #own release', 'POST', '/v1/sandbox/events', {
      body: { type: 'release.takedown_completed', release_id: releaseId },
    });
    await call('POST /v1/sandbox/events #unknown release', 'POST', '/v1/sandbox/events', {
      body: { type: 'release.stores_added', release_id: '3f2b6c1e-8d4a-4c1b-9e2f-0a1b2c3d4e5f' },
    });

    // Every route and tool has a recorded case.
    const missing = [
      ...restRoutes.map((r) => `${r.method} /v1${r.path}`),
      ...agentHttpRoutes.map((r) => `${r.method} /api/mcp${r.path}`),
      ...agentTools.map((t) => `rpc tools/call ${t.name}`),
    ].filter((name) => !seen.has(name));
    expect(missing).toEqual([]);

    const text = `${JSON.stringify(recorded, null, 2)}\n`;
    if (process.env.UPDATE_GOLDEN && mayRecord) writeFileSync(GOLDEN, text);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Recorded[];
    for (let i = 0; i < Math.max(golden.length, recorded.length); i++) {
      expect(recorded[i], `case ${i}: ${golden[i]?.case ?? recorded[i]?.case}`).toEqual(golden[i]);
    }
  }, 120_000);
}
