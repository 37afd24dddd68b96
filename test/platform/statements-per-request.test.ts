import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { type Assets, uploadAssets, validSubmission } from '../support/releases.ts';
import { COMMIT_ANNOUNCEMENT, countStatementsByRequest } from '../support/sql-count.ts';

/**
 * SQL statements per request on the hot reads and the submit, with the token already verified (the usual case): a
 * regression (an extra lookup, a per-row query) fails here. docs/hot-paths.md explains each figure.
 */
const app = useTestApp();
let account: AccountFixture;
let assets: Assets;
let releaseId: string;
const sql = countStatementsByRequest({ ignore: COMMIT_ANNOUNCEMENT });

beforeAll(async () => {
  account = await accountWithToken(app().em(), { credits: 100 });
  assets = await uploadAssets(app().url, account);
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
    const read = () => statements(path.replace(':id', releaseId), auth ? account.token : null);
    // A commit of the process's background work (a delivery step of the test's release, among others)
    // between the warming read and the counted one clears the caches, and a polled read then loads
    // again: the fewest of up to three rounds is the figure. A read over its budget is over every time.
    let count = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 3 && count > most; round++) {
      await read(); // warm
      count = Math.min(count, await read());
    }
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

describe('SQL statements per submit', () => {
  // Before the transaction: the Idempotency-Key, the cover and the audio file (one statement), the
  // audio's cached AI verdict and registry match (one statement per distinct file, whatever the track
  // count). In it: begin, one statement writing the key, the release, the tracks, the artists and the
  // snapshot, one writing the hand-over's deliveries and release job, its wake-up job, then the balance
  // move with the reload claim and the ledger row in one statement, commit. docs/hot-paths.md ("Write
  // path: submit") explains each.
  it.each([2, 20])(
    'POST /v1/releases with %i tracks and an Idempotency-Key runs 9 statements',
    async (tracks) => {
      const requestId = `submit-${tracks}-${Date.now()}`;
      const answer = await request(app().url, 'POST', '/v1/releases', {
        token: account.token,
        body: validSubmission(assets, tracks),
        headers: { 'x-request-id': requestId, 'idempotency-key': requestId },
      });
      expect(answer.status).toBe(201);
      expect(sql.count(requestId)).toBe(9);
      const texts = sql.texts(requestId);
      const [rows, handOver] = texts.slice(4, 6);
      for (const table of [
        'idempotency_keys',
        'releases',
        'release_tracks',
        'release_artists',
        'release_snapshots',
      ])
        expect(rows).toContain(`insert into "${table}"`);
      for (const table of ['deliveries', 'release_jobs'])
        expect(handOver).toContain(`insert into "${table}"`);
      // The balance lock (the account's row) is taken last, by the statement that also writes the
      // ledger row: only the commit follows.
      const [move, commit] = texts.slice(-2);
      expect(move).toMatch(/update accounts set credit_balance/);
      expect(move).toMatch(/insert into credit_transactions/);
      expect(commit).toBe('commit');
    },
  );
});

describe("the submit's reads", () => {
  // The key's row, the files and the audio's cached analyses are three statements sent together on
  // three pooled connections, not one after the other: a submit pays one round trip for them.
  it('looks the files and their analyses up while the Idempotency-Key is read', async () => {
    const locker = new pg.Client({ connectionString: String(app().services.orm.config.get('clientUrl')) });
    await locker.connect();
    try {
      // The key's read waits on this lock until the end of the test's transaction.
      await locker.query('begin');
      await locker.query('lock table idempotency_keys in access exclusive mode');
      const requestId = `reads-${Date.now()}`;
      const answer = request(app().url, 'POST', '/v1/releases', {
        token: account.token,
        body: validSubmission(assets, 2),
        headers: { 'x-request-id': requestId, 'idempotency-key': requestId },
      });
      const sent = (table: string) => sql.texts(requestId).some((text) => text.includes(table));
      const deadline = Date.now() + 10_000;
      while (!(sent('from stored_files') && sent('from audio_analyses')) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const waiting = await locker.query<{ query: string }>(
        "select query from pg_stat_activity where wait_event_type = 'Lock' and query like '%idempotency_keys%'",
      );
      expect(sent('from stored_files')).toBe(true);
      expect(sent('from audio_analyses')).toBe(true);
      expect(waiting.rows).toHaveLength(1);
      await locker.query('commit');
      expect((await answer).status).toBe(201);
    } finally {
      await locker.end();
    }
  });
});
