import { AppError } from '../../platform/errors.ts';
import type { StoredFile } from '../uploads/index.ts';
import { findOwnedFile } from '../uploads/index.ts';
import { AudioAnalysis } from './audio-analysis.entity.ts';
import type { AudioDeps } from './audio-deps.ts';
import { saveAnalysis } from './cached-analysis.ts';
import { type AnalysisRequest, type AnalysisStatus, MAX_ANALYSED_BYTES } from './detect-ai.ts';
import { fingerprintAudio } from './registry/chromaprint.ts';
import { findBestMatch, registryVersion } from './registry/registry.ts';
import type { DspLink } from './registry/registry-recording.entity.ts';

/** Where a stored registry-match result keeps the registry version it was checked against. */
const REGISTRY_VERSION = 'registryVersion';
/**
 * Where a stored result keeps the version of what it may hold; results stored before the current one
 * (format 1 showed another account's store links) are checked again.
 */
const RESULT_FORMAT = 'resultFormat';
const CURRENT_FORMAT = 2;

/** A match counts only above this share of the excerpt's fingerprint (the spec's 10%). */
export const MATCH_THRESHOLD_PERCENT = 10;
/** The most of a file compared: a registry check needs seconds, not the whole song. */
const QUERY_SECONDS = 120;

export interface AcrMatch {
  title: string;
  artist: string | null;
  isrc: string | null;
  albumName: string | null;
  label: string | null;
  queryMatchPercentage: number;
  confidence: number;
  dspLinks: DspLink[];
  /** The caller's own release (not a rights conflict), with its id. */
  ownRelease: boolean;
  releaseId: string | null;
}

export interface AcrResult {
  status: AnalysisStatus;
  matched: boolean;
  bestMatch: AcrMatch | null;
  provider: string;
  model: string;
  message: string | null;
  cached: boolean;
}

const PROVIDER = 'tributary';
const MODEL = 'chromaprint-registry-v1';

/** How sure a match is, 0..1: 0 at the 10% threshold, 1 from 50% of the excerpt matched. */
export const confidenceOf = (percent: number) =>
  Math.round(Math.min(1, Math.max(0, (percent - MATCH_THRESHOLD_PERCENT) / 40)) * 100) / 100;

const empty = (status: AnalysisStatus, message: string): AcrResult => ({
  status,
  matched: false,
  bestMatch: null,
  provider: PROVIDER,
  model: MODEL,
  message,
  cached: false,
});

async function check(deps: AudioDeps, accountId: string, file: StoredFile): Promise<AcrResult> {
  if (file.size > MAX_ANALYSED_BYTES)
    return empty('too_large', 'The file is larger than the analysers take.');
  let fingerprint: Int32Array;
  try {
    fingerprint = (
      await fingerprintAudio(await deps.storage.get(file.storageKey), { maxSeconds: QUERY_SECONDS })
    ).fingerprint;
  } catch (error) {
    if (error instanceof AppError) return empty('download_failed', 'The stored audio could not be read.');
    return empty('skipped', 'The audio could not be decoded, so it was not checked.');
  }
  if (fingerprint.length < 8)
    return empty('skipped', 'The audio is too short to fingerprint (about 3 s at least).');
  const best = await findBestMatch(deps.em, fingerprint);
  if (!best || best.queryMatchPercentage <= MATCH_THRESHOLD_PERCENT) {
    return {
      ...empty('ok', 'No recording in the registry matches more than 10% of this audio.'),
      cached: false,
    };
  }
  const { recording } = best;
  const ownRelease = recording.account?.id === accountId;
  // Another account's release: its store links are that account's (the sandbox's carry its internal
  // release id), so they are not shown, as its release id is not. The operator's catalogue has no
  // account: its links are public.
  const othersRelease = recording.account != null && !ownRelease;
  return {
    status: 'ok',
    matched: true,
    bestMatch: {
      title: recording.title,
      artist: recording.artist ?? null,
      isrc: recording.isrc ?? null,
      albumName: recording.albumName ?? null,
      label: recording.label ?? null,
      queryMatchPercentage: best.queryMatchPercentage,
      confidence: confidenceOf(best.queryMatchPercentage),
      dspLinks: othersRelease ? [] : recording.dspLinks,
      ownRelease,
      releaseId: ownRelease ? (recording.releaseId ?? null) : null,
    },
    provider: PROVIDER,
    model: MODEL,
    message: ownRelease
      ? 'This audio matches a release of your own that is live here: not a rights conflict.'
      : `This audio matches a registered recording at ${Math.round(best.offsetSeconds)} s.`,
    cached: false,
  };
}

/**
 * `POST /audio/acr-check`: the caller's audio against the registry (live releases and the operator's
 * reference catalogue). No billing effect. Cached per file until the registry changes (docs/audio.md).
 */
export async function acrCheck(
  deps: AudioDeps,
  accountId: string,
  request: AnalysisRequest,
): Promise<AcrResult> {
  const file = await findOwnedFile(deps.em, accountId, request.fileUrl, {
    store: 'audio',
    fieldPath: 'file_url',
  });
  const cached = await deps.em.findOne(AudioAnalysis, { file, kind: 'registry_match' });
  // Read before the check reads the registry: a change committed meanwhile makes the result stale.
  const version = await registryVersion(deps.em);
  if (
    cached &&
    cached.result[REGISTRY_VERSION] === version &&
    cached.result[RESULT_FORMAT] === CURRENT_FORMAT
  ) {
    const { [REGISTRY_VERSION]: _, [RESULT_FORMAT]: __, ...answer } = cached.result;
    return { ...(answer as unknown as AcrResult), cached: true };
  }
  const result = await check(deps, accountId, file);
  if (result.status === 'download_failed') return result;
  const stored = {
    ...result,
    cached: undefined,
    [REGISTRY_VERSION]: version,
    [RESULT_FORMAT]: CURRENT_FORMAT,
  };
  if (cached) {
    await deps.em.nativeUpdate(AudioAnalysis, { id: cached.id }, { result: stored, createdAt: new Date() });
  } else {
    await saveAnalysis(deps.em, file, 'registry_match', stored);
  }
  return result;
}
