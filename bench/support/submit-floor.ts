import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { PgBoss } from 'pg-boss';
import { IN_FLIGHT_TIMEOUT_SECONDS } from '../../src/domains/credits/auto-reload-trigger.ts';
import { MOVE_AND_RECORD_SQL } from '../../src/domains/credits/post-ledger-entry.ts';
import { ADVANCE_QUEUE, advanceJobKey } from '../../src/domains/delivery/schedule.ts';
import { assignUpc, isrcAssigner } from '../../src/domains/releases/assigned-identifiers.ts';
import { JOBS_SCHEMA } from '../../src/platform/jobs/queue.ts';
import { parseFileUrl } from '../../src/platform/storage/keys.ts';

/** What one account's floor submit needs: its id and the files its submission points at. */
export interface FloorAccount {
  accountId: string;
  submission: { release: Record<string, unknown>; tracks: Record<string, unknown>[] };
}

const STEP_SECONDS = 300;

type Part = [table: string, columns: string[], rows: unknown[][]];

/**
 * One statement inserting every part's rows (`insert into table (columns) values ($1, …), (…)`), the
 * first parts as data-modifying `WITH` queries and the last as the statement itself.
 */
function insertTogether(parts: Part[]): [string, unknown[]] {
  const values: unknown[] = [];
  const texts = parts.map(([table, columns, rows]) => {
    const tuples = rows.map((row) => {
      const start = values.length;
      values.push(...row);
      return `(${row.map((_, i) => `$${start + i + 1}`).join(', ')})`;
    });
    return `insert into ${table} (${columns.join(', ')}) values ${tuples.join(', ')}`;
  });
  const last = texts.pop()!;
  return [
    texts.length > 0 ? `with ${texts.map((t, i) => `w${i} as (${t})`).join(', ')} ${last}` : last,
    values,
  ];
}

/**
 * The raw SQL of a 20-track submit with an Idempotency-Key, issued with `pg` and nothing else: the
 * statements the submit runs (docs/hot-paths.md, "Write path: submit"), in the same order, writing
 * the same rows and payload sizes. The reads first, sent together on three pooled connections (the key,
 * the cover and audio files in one statement, the audio's two cached analyses in one statement), then
 * one transaction on a pooled connection taken once they are in: one statement inserting the
 * submission's rows (key, release, tracks, artists, snapshot), one the hand-over's (deliveries, job), the
 * delivery wake-up job (pg-boss's own statement), then the balance move with the reload claim and the
 * ledger row in one statement (the balance lock, held to the commit), commit. Give it a pool whose
 * statements run as the service's do (`routeConnectionQueries`: the callback form, prepared), and the
 * stored files' columns as the service names them (`columnList`).
 * Returns the number of statements it sent.
 */
export function submitFloor(pool: pg.Pool, fileColumns: string) {
  // Never started: it only builds and sends the job insert, on the connection given with each send
  // (the queue's settings are read once, on the pool).
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: JOBS_SCHEMA,
    supervise: false,
    schedule: false,
    migrate: false,
    registerInstance: false,
  });
  return async (account: FloorAccount, key: string): Promise<number> => {
    let statements = 0;
    const { accountId, submission } = account;
    const cover = parseFileUrl(String(submission.release.cover_art_file_url))!;
    const audio = parseFileUrl(String(submission.tracks[0]!.audio_file_url))!;
    // The reads go out together, each on a pooled connection of its own, as the submit sends them.
    const read = (text: string, values: unknown[]) => {
      statements++;
      return pool.query(text, values);
    };
    await Promise.all([
      read(
        'select request_hash, release_id, created_at from idempotency_keys where account_id = $1 and key = $2',
        [accountId, key],
      ),
      read(
        `select ${fileColumns} from stored_files
          where (account_id = $1 and store = $2 and name = $3) or (account_id = $1 and store = $4 and name = $5)`,
        [accountId, cover.store, cover.name, audio.store, audio.name],
      ),
      read(
        `select a.kind, a.result from audio_analyses a join stored_files f on f.id = a.file_id
          where f.account_id = $1 and f.store = $2 and f.name = $3`,
        [accountId, audio.store, audio.name],
      ),
    ]);

    const now = new Date();
    const releaseId = randomUUID();
    const credits = submission.tracks.length;
    const storeIds = (submission.release.distribution_store_ids as number[]).map(Number);
    const payload = JSON.stringify(submission);
    const isrcOf = isrcAssigner(releaseId, now.getUTCFullYear());
    const client = await pool.connect();
    const query = (text: string, values: unknown[] = []) => {
      statements++;
      return client.query(text, values);
    };
    await query('begin');
    try {
      const dueAt = new Date(now.getTime() + STEP_SECONDS * 1000);
      await query(
        ...insertTogether([
          [
            'idempotency_keys',
            ['account_id', 'key', 'request_hash', 'release_id', 'created_at'],
            [[accountId, key, 'f'.repeat(64), releaseId, now]],
          ],
          [
            'releases',
            [
              'id',
              'account_id',
              'status',
              'revision',
              'draft_status',
              'payload',
              'title',
              'primary_artist_name',
              'distribution_store_ids',
              'token_offset',
              'credits_spent',
              'provenance',
              'aggregate_status',
              'upc',
              'submitted_at',
              'created_at',
              'updated_at',
            ],
            [
              [
                releaseId,
                accountId,
                'submitted',
                1,
                'submitted',
                payload,
                String(submission.release.title),
                String(submission.release.primary_artist_name),
                JSON.stringify(storeIds),
                false,
                credits,
                'MCP',
                'queued',
                assignUpc(releaseId),
                now,
                now,
                now,
              ],
            ],
          ],
          [
            'release_tracks',
            [
              'id',
              'release_id',
              'position',
              'title',
              'isrc',
              'audio_file_url',
              'explicit',
              'track_type',
              'ai',
              'credits',
              'payload',
            ],
            submission.tracks.map((track, position) => [
              randomUUID(),
              releaseId,
              position,
              String(track.title),
              isrcOf(position),
              String(track.audio_file_url),
              false,
              'original',
              false,
              1,
              JSON.stringify(track),
            ]),
          ],
          [
            'release_artists',
            ['id', 'release_id', 'position', 'name', 'is_primary'],
            [[randomUUID(), releaseId, 0, String(submission.release.primary_artist_name), true]],
          ],
          [
            'release_snapshots',
            ['id', 'release_id', 'revision', 'status', 'payload', 'created_at'],
            [[randomUUID(), releaseId, 1, 'submitted', payload, now]],
          ],
        ]),
      );
      const step = { name: 'release.enqueued', status: 'completed', detail: 'enqueued', at: now };
      await query(
        ...insertTogether([
          [
            'deliveries',
            [
              'id',
              'release_id',
              'store_id',
              'status',
              'status_text',
              'next_step_at',
              'created_at',
              'updated_at',
            ],
            storeIds.map((storeId) => [
              randomUUID(),
              releaseId,
              storeId,
              'queued',
              'Queued',
              dueAt,
              now,
              now,
            ]),
          ],
          [
            'release_jobs',
            ['id', 'release_id', 'state', 'steps', 'errors', 'created_at', 'updated_at'],
            [[randomUUID(), releaseId, 'queued', JSON.stringify([step]), '[]', now, now]],
          ],
        ]),
      );
      statements++;
      await boss.send(
        ADVANCE_QUEUE,
        { releaseId },
        {
          singletonKey: advanceJobKey(releaseId, dueAt),
          startAfter: dueAt,
          db: { executeSql: (text, values) => client.query(text, values) },
        },
      );
      await query(MOVE_AND_RECORD_SQL, [
        -credits,
        accountId,
        IN_FLIGHT_TIMEOUT_SECONDS,
        randomUUID(),
        'debit',
        `release:${releaseId}`,
        now,
      ]);
      await query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
    return statements;
  };
}
