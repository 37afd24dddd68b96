import { describe, expect, it } from 'vitest';
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  updateEndpoint,
} from '../../src/domains/webhooks/endpoints.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/domains/webhooks/event-types.ts';
import { endpointView } from '../../src/domains/webhooks/views.ts';
import { AppError } from '../../src/platform/errors.ts';
import { open } from '../../src/platform/secret-box.ts';
import { accountWithToken } from '../support/factories.ts';
import { tableResolver, testSecretKey, useWebhookOrm } from './harness.ts';

const orm = useWebhookOrm();
const secretKey = testSecretKey();
/** "The internet": public.test resolves to a public address (never contacted at creation). */
const resolver = tableResolver({ 'public.test': '93.184.216.34', 'sneaky.test': '127.0.0.1' });
const options = { policy: { allowPrivate: false }, resolver, secretKey };
const URL_OK = 'https://public.test/hooks';

async function account() {
  return (await accountWithToken(orm().em.fork())).accountId;
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('webhook endpoints', () => {
  it('returns the signing secret once; reads carry none and the row holds no plaintext', async () => {
    const accountId = await account();
    const { endpoint, secret } = await createEndpoint(orm().em.fork(), accountId, { url: URL_OK }, options);
    // 32 bytes in standard base64, as Standard Webhooks libraries decode them.
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint.secretPrefix).toBe(secret.slice(0, 10));

    const listed = await listEndpoints(orm().em.fork(), accountId);
    expect(listed).toHaveLength(1);
    const view = endpointView(listed[0]!);
    expect(JSON.stringify(view)).not.toContain(secret);
    expect(Object.keys(view)).not.toContain('secretSealed');
    expect(view).toMatchObject({ url: URL_OK, active: true, failureCount: 0, description: null });

    const [row] = await orm()
      .em.fork()
      .execute<Record<string, unknown>[]>('select * from webhook_endpoints where id = ?', [endpoint.id]);
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));
    expect(open(String(row?.secret_sealed), secretKey)).toBe(secret);
  });

  it('accepts https only (400 invalid_request_error url_not_https)', async () => {
    const accountId = await account();
    for (const url of ['http://public.test/hooks', 'ftp://public.test/x']) {
      const error = await failure(createEndpoint(orm().em.fork(), accountId, { url }, options));
      expect(error.type).toBe('invalid_request_error');
      expect(error.code).toBe('url_not_https');
      expect(error.details?.[0]?.path).toBe('url');
    }
    const invalid = await failure(createEndpoint(orm().em.fork(), accountId, { url: 'nope' }, options));
    expect(invalid.code).toBe('invalid_url');
    expect(await listEndpoints(orm().em.fork(), accountId)).toHaveLength(0);
  });

  it('refuses non-public targets (SSRF) with url_not_allowed', async () => {
    const accountId = await account();
    for (const url of [
      'https://127.0.0.1/',
      'https://10.0.0.1/',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/',
      'https://2130706433/',
      'https://sneaky.test/hook',
    ]) {
      const error = await failure(createEndpoint(orm().em.fork(), accountId, { url }, options));
      expect(error.type, url).toBe('invalid_request_error');
      expect(error.code, url).toBe('url_not_allowed');
      expect(error.details?.[0]?.path).toBe('url');
    }
    const creds = await failure(
      createEndpoint(orm().em.fork(), accountId, { url: 'https://u:p@public.test/' }, options),
    );
    expect(creds.code).toBe('url_not_allowed');
    const unresolvable = await failure(
      createEndpoint(orm().em.fork(), accountId, { url: 'https://nowhere.test/' }, options),
    );
    expect(unresolvable.code).toBe('url_unresolvable');
    // Cloud metadata stays refused even where private addresses are allowed.
    const metadata = await failure(
      createEndpoint(
        orm().em.fork(),
        accountId,
        { url: 'https://169.254.169.254/' },
        { ...options, policy: { allowPrivate: true } },
      ),
    );
    expect(metadata.code).toBe('url_not_allowed');
    const allowed = await createEndpoint(
      orm().em.fork(),
      accountId,
      { url: 'https://sneaky.test/hook' },
      { ...options, policy: { allowPrivate: true } },
    );
    expect(allowed.endpoint.url).toBe('https://sneaky.test/hook');
  });

  it('allows at most 5 endpoints per account (409 conflict_error)', async () => {
    const accountId = await account();
    const results = await Promise.allSettled(
      Array.from({ length: 7 }, (_, i) =>
        createEndpoint(orm().em.fork(), accountId, { url: `${URL_OK}/${i}` }, options),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      const error = (result as PromiseRejectedResult).reason as AppError;
      expect(error.type).toBe('conflict_error');
      expect(error.code).toBe('webhook_limit_reached');
    }
    expect(await listEndpoints(orm().em.fork(), accountId)).toHaveLength(5);
    const other = await account();
    await createEndpoint(orm().em.fork(), other, { url: URL_OK }, options);
  });

  it('defaults event_types to every kind known at creation and stores it', async () => {
    const accountId = await account();
    const { endpoint } = await createEndpoint(orm().em.fork(), accountId, { url: URL_OK }, options);
    expect(endpoint.eventTypes).toEqual([...WEBHOOK_EVENT_TYPES]);
    const [row] = await orm()
      .em.fork()
      .execute<{ event_types: string[] }[]>('select event_types from webhook_endpoints where id = ?', [
        endpoint.id,
      ]);
    expect(row?.event_types).toEqual([...WEBHOOK_EVENT_TYPES]);
    // A kind added later is not picked up by existing endpoints; a PATCH opts in.
    const known = [...WEBHOOK_EVENT_TYPES, 'release.future_kind'];
    const [reloaded] = await listEndpoints(orm().em.fork(), accountId);
    expect(reloaded?.eventTypes).not.toContain('release.future_kind');
    const patched = await updateEndpoint(
      orm().em.fork(),
      accountId,
      endpoint.id,
      { eventTypes: ['release.future_kind', 'release.approved'] },
      { knownEventTypes: known },
    );
    expect(patched.eventTypes).toEqual(['release.future_kind', 'release.approved']);
  });

  it('validates event_types and description', async () => {
    const accountId = await account();
    const unknown = await failure(
      createEndpoint(orm().em.fork(), accountId, { url: URL_OK, eventTypes: ['release.nope'] }, options),
    );
    expect(unknown.type).toBe('invalid_request_error');
    expect(unknown.code).toBe('unknown_event_type');
    expect(unknown.message).toContain('release.status_changed');
    expect(unknown.details?.[0]?.path).toBe('event_types[0]');
    const empty = await failure(
      createEndpoint(orm().em.fork(), accountId, { url: URL_OK, eventTypes: [] }, options),
    );
    expect(empty.code).toBe('invalid_event_types');
    const long = await failure(
      createEndpoint(orm().em.fork(), accountId, { url: URL_OK, description: 'x'.repeat(501) }, options),
    );
    expect(long.details?.[0]?.path).toBe('description');
    const { endpoint } = await createEndpoint(
      orm().em.fork(),
      accountId,
      { url: URL_OK, description: 'prod', eventTypes: ['release.approved', 'release.approved'] },
      options,
    );
    expect(endpoint.eventTypes).toEqual(['release.approved']);
    expect(endpoint.description).toBe('prod');
  });

  it("answers 404 not_found_error for another account's id, unknown and malformed ids", async () => {
    const owner = await account();
    const intruder = await account();
    const { endpoint } = await createEndpoint(orm().em.fork(), owner, { url: URL_OK }, options);
    for (const id of [endpoint.id, '7c3e3a4e-52c4-4bb6-9d87-2a6a0f0e0e0e', 'not-a-uuid']) {
      const patch = await failure(updateEndpoint(orm().em.fork(), intruder, id, { active: false }));
      expect(patch.type).toBe('not_found_error');
      expect(patch.code).toBe('webhook_not_found');
      const del = await failure(deleteEndpoint(orm().em.fork(), intruder, id));
      expect(del.type).toBe('not_found_error');
    }
    const [still] = await listEndpoints(orm().em.fork(), owner);
    expect(still?.active).toBe(true);
    expect(await deleteEndpoint(orm().em.fork(), owner, endpoint.id)).toEqual({
      id: endpoint.id,
      deleted: true,
    });
    expect(await listEndpoints(orm().em.fork(), owner)).toHaveLength(0);
  });

  it('PATCH active false disables, active true re-enables and resets the failure count', async () => {
    const accountId = await account();
    const { endpoint } = await createEndpoint(orm().em.fork(), accountId, { url: URL_OK }, options);
    const disabled = await updateEndpoint(orm().em.fork(), accountId, endpoint.id, { active: false });
    expect(disabled.active).toBe(false);
    expect(disabled.disabledAt).toBeInstanceOf(Date);
    await orm()
      .em.fork()
      .execute('update webhook_endpoints set failure_count = 20 where id = ?', [endpoint.id]);
    const enabled = await updateEndpoint(orm().em.fork(), accountId, endpoint.id, { active: true });
    expect(enabled).toMatchObject({ active: true, failureCount: 0, disabledAt: null });
  });
});
