import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../../../platform/db/pg-array.ts';
import { bestAlignment } from './align.ts';
import { ITEM_SECONDS } from './chromaprint.ts';
import { candidateQuery, KEY_SHIFT, lookupKeys } from './lookup-keys.ts';
import { type DspLink, RegistryRecording } from './registry-recording.entity.ts';
import { RegistryVersion } from './registry-version.entity.ts';

export interface RecordingInput {
  source: RegistryRecording['source'];
  accountId: string | null;
  releaseId: string | null;
  trackPosition: number | null;
  externalKey: string | null;
  title: string;
  artist: string | null;
  isrc: string | null;
  albumName: string | null;
  label: string | null;
  dspLinks: DspLink[];
  durationSeconds: number;
  fingerprint: ArrayLike<number>;
}

/** Adds a recording, replacing the one of the same release track or import key. */
export async function indexRecording(em: EntityManager, input: RecordingInput): Promise<void> {
  if (input.releaseId !== null && input.trackPosition !== null) {
    await em.nativeDelete(RegistryRecording, {
      releaseId: input.releaseId,
      trackPosition: input.trackPosition,
    });
  }
  if (input.externalKey !== null) {
    await em.nativeDelete(RegistryRecording, { source: input.source, externalKey: input.externalKey });
  }
  const fingerprint = Array.from(input.fingerprint);
  await em.insert(
    RegistryRecording,
    em.create(
      RegistryRecording,
      {
        source: input.source,
        account: input.accountId,
        releaseId: input.releaseId,
        trackPosition: input.trackPosition,
        externalKey: input.externalKey,
        title: input.title.slice(0, 500),
        artist: input.artist?.slice(0, 500) ?? null,
        isrc: input.isrc?.slice(0, 12) ?? null,
        albumName: input.albumName?.slice(0, 500) ?? null,
        label: input.label?.slice(0, 500) ?? null,
        dspLinks: input.dspLinks,
        durationSeconds: input.durationSeconds,
        fingerprint,
        lookupKeys: lookupKeys(fingerprint).map(String),
      },
      { persist: false },
    ),
  );
  await bumpRegistryVersion(em);
}

/** The registry's version now (0 before its first change): see RegistryVersion. */
export async function registryVersion(em: EntityManager): Promise<number> {
  const row = await em.findOne(RegistryVersion, { id: 1 }, { disableIdentityMap: true });
  return row?.version ?? 0;
}

/** Marks a change to the registry; called after the change is written (in its transaction, if any). */
async function bumpRegistryVersion(em: EntityManager): Promise<void> {
  const table = em.getMetadata(RegistryVersion).tableName;
  await em
    .getConnection()
    .execute(
      `insert into ${table} (id, version) values (1, 1) on conflict (id) do update set version = ${table}.version + 1`,
      [],
      'run',
      em.getTransactionContext(),
    );
}

export interface RegistryMatch {
  recording: RegistryRecording;
  /** Share of the excerpt's fingerprint found in the recording, 0..100. */
  queryMatchPercentage: number;
  offsetSeconds: number;
}

/** Candidates ranked by shared lookup keys, checked by alignment. */
const CANDIDATES = 5;

/**
 * The recording an excerpt most likely comes from: candidates from the GIN index (any two
 * consecutive lookup keys of the excerpt present), ranked by shared keys, confirmed by alignment.
 */
export async function findBestMatch(
  em: EntityManager,
  fingerprint: ArrayLike<number>,
): Promise<RegistryMatch | null> {
  const query = candidateQuery(fingerprint);
  if (query === null) return null;
  const keys = lookupKeys(fingerprint);
  // Fingerprint arrays live out of line (TOAST), so the planner thinks the table tiny and would scan
  // it; the GIN index is always the right plan for this query.
  const rows = await em.transactional(async (tem) => {
    await tem.execute('set local enable_seqscan = off');
    return tem.execute<{ id: string }[]>(
      `select id from registry_recordings where lookup_keys @@ ?::query_int
       order by icount(lookup_keys & ?::int4[]) desc, created_at limit ${CANDIDATES}`,
      [query, pgArray(keys)],
    );
  });
  if (rows.length === 0) return null;
  const recordings = await em.find(RegistryRecording, { id: { $in: rows.map((r) => r.id) } });
  let best: RegistryMatch | null = null;
  for (const recording of recordings) {
    const alignment = bestAlignment(fingerprint, recording.fingerprint, KEY_SHIFT);
    const queryMatchPercentage = Math.round(alignment.matchedShare * 1000) / 10;
    if (!best || queryMatchPercentage > best.queryMatchPercentage) {
      best = { recording, queryMatchPercentage, offsetSeconds: alignment.offset * ITEM_SECONDS };
    }
  }
  return best;
}
