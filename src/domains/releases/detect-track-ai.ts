import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidRequest, notFound } from '../../platform/errors.ts';
import type { AudioDeps } from '../audio/index.ts';
import { type AiDetectionResult, type AnalysisRequest, aiDetectionOf } from '../audio/index.ts';
import { findOwnedFile } from '../uploads/index.ts';
import { findOwnedRelease } from './find-release.ts';
import { Release } from './release.entity.ts';
import { isAiDeclared } from './rules/engine/index.ts';

function draftTrackIndex(release: Release, index: number): number {
  const tracks = release.payload.tracks ?? [];
  if (index >= tracks.length) {
    throw invalidRequest(`The draft has no track at index ${index}.`, [
      { path: 'track_index', message: `the draft has ${tracks.length} track(s)` },
    ]);
  }
  return index;
}

/** The caller's draft track at `index` becomes AI when the detector says so; never the reverse. */
async function markDraftTrackAi(em: EntityManager, accountId: string, releaseId: string, index: number) {
  const release = await findOwnedRelease(em, accountId, releaseId, { lock: true });
  if (release.status !== 'draft') return;
  const tracks = release.payload.tracks ?? [];
  const track = tracks[draftTrackIndex(release, index)] ?? {};
  if (isAiDeclared(track)) return;
  release.payload = {
    ...release.payload,
    tracks: tracks.map((t, i) => (i === index ? { ...t, contains_ai: true } : t)),
  };
}

/** The draft a detection names: by `release_id`, else the caller's draft of `conversation_id`. */
async function namedRelease(em: EntityManager, accountId: string, request: AnalysisRequest) {
  if (request.releaseId) return findOwnedRelease(em, accountId, request.releaseId);
  if (!request.conversationId) return null;
  const release = await em.findOne(Release, { account: accountId, conversationId: request.conversationId });
  if (!release) {
    throw notFound(
      `No draft of yours has conversation_id ${JSON.stringify(request.conversationId)}; save one with POST /v1/drafts first, or send release_id.`,
      'release_not_found',
    );
  }
  return release;
}

/**
 * `POST /audio/ai-detection`: the caller's audio file through the same classifier billing uses.
 * With `track_index` and the draft (`release_id`, or `conversation_id`), a detected AI track of that
 * draft is marked AI (a track the user marked AI stays AI; a submitted release is not changed).
 */
export async function detectAudioAi(
  deps: AudioDeps,
  accountId: string,
  request: AnalysisRequest,
): Promise<AiDetectionResult> {
  const file = await findOwnedFile(deps.em, accountId, request.fileUrl, {
    store: 'audio',
    fieldPath: 'file_url',
  });
  const index = request.trackIndex ?? null;
  if (index !== null && !request.releaseId && !request.conversationId) {
    throw invalidRequest('track_index needs release_id or conversation_id: the draft whose track it is.', [
      { path: 'release_id', message: 'required with track_index (or conversation_id)' },
    ]);
  }
  const release = await namedRelease(deps.em, accountId, request);
  if (release && index !== null && release.status === 'draft') draftTrackIndex(release, index);
  const result = await aiDetectionOf(deps, file);
  if (result.status === 'ok' && result.containsAi && index !== null && release) {
    await deps.em.transactional((em) => markDraftTrackAi(em, accountId, release.id, index));
  }
  return result;
}
