import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assignIsrc, assignUpc } from '../../src/domains/releases/assigned-identifiers.ts';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { type Assets, uploadAssets, validSubmission } from '../support/releases.ts';

/**
 * The rows a submission writes, column by column, against a fixture recorded from the unit-of-work
 * path (the ORM's flush), so that writing them directly changes no value: ids, timestamps and the
 * files' URLs, which differ from run to run, are replaced by what they stand for (a timestamp by its
 * offset from the submission, the assigned UPC and ISRCs by their derivation from the release id).
 * `UPDATE_FIXTURES=1` records the fixture anew.
 */
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'submitted-rows.json');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)$/;

const app = useTestApp();

type Rows = Record<string, unknown>[];

async function rowsOf(releaseId: string, accountId: string): Promise<Record<string, Rows>> {
  const em = app().em();
  const read = (sql: string, params: unknown[]) => em.execute<Rows>(sql, params);
  return {
    releases: await read('select * from releases where id = ?', [releaseId]),
    release_tracks: await read('select * from release_tracks where release_id = ? order by position', [
      releaseId,
    ]),
    release_artists: await read('select * from release_artists where release_id = ? order by position', [
      releaseId,
    ]),
    release_snapshots: await read('select * from release_snapshots where release_id = ? order by revision', [
      releaseId,
    ]),
    deliveries: await read('select * from deliveries where release_id = ? order by store_id', [releaseId]),
    release_jobs: await read('select * from release_jobs where release_id = ?', [releaseId]),
    idempotency_keys: await read('select * from idempotency_keys where release_id = ?', [releaseId]),
    credit_transactions: await read(
      `select * from credit_transactions where account_id = ? and type = 'debit' order by seq`,
      [accountId],
    ),
  };
}

/** What each varying value stands for: the same submission on any run normalises to the same rows. */
function normaliser(releaseId: string, account: AccountFixture, assets: Assets, key: string) {
  const at = (value: string | Date) => new Date(value).getTime();
  let submittedAt = 0;
  const known = (
    [
      [key, '<idempotency key>'],
      [assets.coverUrl, '<cover url>'],
      [assets.audioUrl, '<audio url>'],
      [releaseId, '<release id>'],
      [account.accountId, '<account id>'],
      // The job's first step names it.
      [assignUpc(releaseId), '<upc from the release id>'],
    ] as const
  ).filter(([raw]) => raw !== '');
  const assigned = new Map<string, string>();
  const normalise = (value: unknown): unknown => {
    if (value instanceof Date) {
      // To the nearest 10 s: the rows of one submission are written within a second of each other.
      const seconds = Math.round((at(value) - submittedAt) / 10_000) * 10 || 0;
      return `<submitted_at ${seconds >= 0 ? '+' : ''}${seconds} s>`;
    }
    if (Array.isArray(value)) return value.map(normalise);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
    if (typeof value !== 'string') return value;
    if (TIMESTAMP.test(value)) return normalise(new Date(value));
    if (DAY.test(value)) {
      // A release date: days after the submission's (UTC) day, as the fixture's submission sets it.
      const days = Math.round(
        (Date.parse(`${value}T00:00:00Z`) -
          Date.parse(`${new Date(submittedAt).toISOString().slice(0, 10)}T00:00:00Z`)) /
          86_400_000,
      );
      return `<submitted day +${days} d>`;
    }
    if (assigned.has(value)) return assigned.get(value);
    let text = value;
    for (const [raw, name] of known) text = text.split(raw).join(name);
    if (UUID.test(text)) return '<uuid>';
    if (SHA256.test(text)) return '<sha256>';
    return text;
  };
  return (rows: Record<string, Rows>) => {
    const release = rows.releases![0]!;
    submittedAt = at(release.submitted_at as string);
    const year = new Date(submittedAt).getUTCFullYear();
    rows.release_tracks!.forEach((_, position) => {
      assigned.set(assignIsrc(releaseId, position, year), `<isrc ${position} from the release id>`);
    });
    return Object.fromEntries(
      Object.entries(rows).map(([table, list]) => [
        table,
        list.map(({ seq: _seq, ...row }) => normalise(row) as Record<string, unknown>),
      ]),
    );
  };
}

let recorded: Record<string, unknown> = {};
try {
  recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown>;
} catch {
  // No fixture yet: UPDATE_FIXTURES=1 writes it.
}
const written: Record<string, unknown> = {};

async function expectRows(name: string, rows: unknown): Promise<void> {
  written[name] = rows;
  if (process.env.UPDATE_FIXTURES) {
    writeFileSync(FIXTURE, `${JSON.stringify({ ...recorded, ...written }, null, 2)}\n`);
    return;
  }
  expect(rows).toEqual(recorded[name]);
}

describe('the rows a submission writes', () => {
  it('a new release: key, release, tracks (one with its own ISRC, one AI), artists, snapshot, stores (one skipped), job, debits', async () => {
    const account = await accountWithToken(app().em(), { credits: 20 });
    const assets = await uploadAssets(app().url, account);
    const body = { ...validSubmission(assets, 3), token_offset: true };
    body.release.distribution_store_ids = [301, 307, 319, 302];
    body.release.primary_artists = [
      { name: 'Lena Marlow', dspone_artist_url: 'https://dspone.example/artist/lena' },
      { name: 'Ari Vale' },
    ];
    body.tracks[1]!.isrc = 'QZES72612345';
    body.tracks[2]!.containsAi = true;
    const key = `rows-${account.accountId}`;
    const response = await request(app().url, 'POST', '/v1/releases', {
      token: account.token,
      body,
      headers: { 'idempotency-key': key, 'x-svc-provenance': 'partner-x' },
    });
    expect(response.status).toBe(201);
    const { releaseId } = response.body as { releaseId: string };
    const normalise = normaliser(releaseId, account, assets, key);
    await expectRows('new release', normalise(await rowsOf(releaseId, account.accountId)));
  });

  it('a draft: the release row updated, its rows inserted', async () => {
    const account = await accountWithToken(app().em(), { credits: 20 });
    const assets = await uploadAssets(app().url, account);
    const body = { ...validSubmission(assets, 2), conversation_id: 'rows-draft' };
    const draft = await request(app().url, 'POST', '/v1/drafts', { token: account.token, body });
    expect(draft.status).toBe(200);
    const response = await request(app().url, 'POST', '/v1/releases', { token: account.token, body });
    expect(response.status).toBe(201);
    const { releaseId } = response.body as { releaseId: string };
    expect(releaseId).toBe(draft.body.releaseId);
    const rows = await rowsOf(releaseId, account.accountId);
    // The draft's own snapshot was written at its save, before the submission: its time is the draft's.
    rows.release_snapshots = rows.release_snapshots!.filter((row) => row.status === 'submitted');
    const normalise = normaliser(releaseId, account, assets, '');
    await expectRows('draft', normalise(rows));
  });
});
