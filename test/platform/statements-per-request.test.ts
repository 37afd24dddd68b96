import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { countStatementsByRequest } from '../support/sql-count.ts';

/**
 * SQL statements per request on the hot reads, with the token already verified (the usual case): a
 * regression (an extra lookup, a per-row query) fails here. docs/performance.md explains each figure.
 */
const app = useTestApp();
let account: AccountFixture;
let releaseId: string;
const sql = countStatementsByRequest();

beforeAll(async () => {
  account = await accountWithToken(app().em(), { credits: 20 });
  const assets = await uploadAssets(app().url, account);
  const submitted = await request(app().url, 'POST', '/v1/releases', {
    token: account.token,
    body: validSubmission(assets, 2),
  });
  releaseId = submitted.body.releaseId;
  await request(app().url, 'GET', '/v1/me', { token: account.token });
  return () => sql.stop();
});

async function statements(path: string, token: string | null = account.token): Promise<number> {
  const requestId = `count-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const answer = await request(app().url, 'GET', path, {
    ...(token ? { token } : {}),
    headers: { 'x-request-id': requestId },
  });
  expect(answer.status).toBe(200);
  return sql.count(requestId);
}

describe('SQL statements per request on the hot reads', () => {
  it.each([
    ['GET /v1/status', '/v1/status', null, 0],
    ['GET /v1/me, polled', '/v1/me', 'token', 0],
    ['GET /v1/releases/{id}/status, polled', '/v1/releases/:id/status', 'token', 0],
    ['GET /v1/releases/{id}', '/v1/releases/:id', 'token', 1],
    ['GET /v1/releases', '/v1/releases', 'token', 1],
  ] as const)('%s runs exactly its budget of statements', async (_name, path, auth, most) => {
    await statements(path.replace(':id', releaseId), auth ? account.token : null); // warm
    const count = await statements(path.replace(':id', releaseId), auth ? account.token : null);
    expect(count).toBe(most);
  });

  it('GET /v1/releases/{id}/status after a commit (nothing cached) runs one statement', async () => {
    app().services.releaseStatuses.clear();
    expect(await statements(`/v1/releases/${releaseId}/status`)).toBe(1);
  });

  it('GET /v1/me after a commit (nothing cached) runs one statement', async () => {
    app().services.profiles.clear();
    expect(await statements('/v1/me')).toBe(1);
  });
});
