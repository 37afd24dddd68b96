import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, invalidRequest } from '../../platform/errors.ts';
import { Account } from '../accounts/index.ts';
import { deepMerge } from './deep-merge.ts';
import { findOwnedRelease } from './find-release.ts';
import { Release, type ReleasePayload } from './release.entity.ts';
import { ReleaseSnapshot } from './release-snapshot.entity.ts';
import { ruleContextFor } from './rule-context.ts';
import { evaluateRules, hasErrors, normaliseSubmission } from './rules/engine/index.ts';

export interface DraftInput {
  release?: unknown;
  tracks?: unknown;
  trackPatches?: unknown;
  uploadRequests?: unknown;
  status?: string | null;
  mode?: DraftMode | null;
  releaseId?: string | null;
  conversationId?: string | null;
  /** The revision the client last saw (If-Match); a different current revision is a 409. */
  ifMatch?: number | null;
}

/** `delta` deep-merges into the draft; `replace` overwrites it. */
export const DRAFT_MODES = ['delta', 'replace'] as const;
export type DraftMode = (typeof DRAFT_MODES)[number];

const asObject = (value: unknown, path: string): Record<string, unknown> => {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidRequest(`${path} must be an object.`, [{ path, message: 'not an object' }]);
  }
  return value as Record<string, unknown>;
};

const asArray = (value: unknown, path: string): unknown[] => {
  if (!Array.isArray(value))
    throw invalidRequest(`${path} must be an array.`, [{ path, message: 'not an array' }]);
  return value;
};

/** Canonical field names (aliases applied) for a release object and tracks, without judging values. */
function canonical(release: unknown, tracks: unknown[]): ReleasePayload {
  const normalised = normaliseSubmission({ release: release ?? {}, tracks });
  return {
    release: normalised.release as Record<string, unknown>,
    tracks: normalised.tracks as Record<string, unknown>[],
  };
}

/**
 * `track_patches`: `[{index | track_number, remove?, patch? | ...fields}]`. Fields merge into the
 * addressed track (index = track count appends a track); `remove: true` deletes it.
 */
function applyTrackPatches(tracks: Record<string, unknown>[], patches: unknown[]): Record<string, unknown>[] {
  const result = [...tracks];
  patches.forEach((raw, i) => {
    const path = `track_patches[${i}]`;
    const patch = asObject(raw, path);
    const { index, track_number, trackNumber, remove, patch: nested, ...fields } = patch;
    const position =
      typeof index === 'number'
        ? index
        : typeof (track_number ?? trackNumber) === 'number'
          ? Number(track_number ?? trackNumber) - 1
          : NaN;
    if (
      !Number.isInteger(position) ||
      position < 0 ||
      position > result.length ||
      (remove === true && position === result.length)
    ) {
      throw invalidRequest(`${path} must address an existing track by index (0-based) or track_number.`, [
        { path: `${path}.index`, message: 'no such track' },
      ]);
    }
    if (remove === true) {
      result.splice(position, 1);
      return;
    }
    const changes =
      canonical({}, [nested === undefined ? fields : asObject(nested, `${path}.patch`)]).tracks[0] ?? {};
    result[position] = deepMerge(result[position] ?? {}, changes) as Record<string, unknown>;
  });
  return result;
}

export async function saveDraft(em: EntityManager, accountId: string, input: DraftInput, now = new Date()) {
  try {
    return await em.transactional((tem) => saveDraftOnce(tem, accountId, input, now));
  } catch (error) {
    // Two first saves of one conversation raced; the second finds the first's draft now.
    if (error instanceof UniqueConstraintViolationException && input.conversationId) {
      return em.transactional((tem) => saveDraftOnce(tem, accountId, input, now));
    }
    throw error;
  }
}

async function saveDraftOnce(em: EntityManager, accountId: string, input: DraftInput, now: Date) {
  let release: Release | null = null;
  if (input.releaseId) release = await findOwnedRelease(em, accountId, input.releaseId, { lock: true });
  else if (input.conversationId) {
    release = await em.findOne(
      Release,
      { account: accountId, conversationId: input.conversationId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
  }
  if (release && release.status !== 'draft') {
    throw conflict(
      'This release has been submitted; its draft can no longer change.',
      'release_already_submitted',
    );
  }
  if (
    release &&
    input.ifMatch !== undefined &&
    input.ifMatch !== null &&
    input.ifMatch !== release.revision
  ) {
    throw conflict(
      `The draft is at revision ${release.revision}, not ${input.ifMatch}: reload it and apply your change again.`,
      'revision_mismatch',
    );
  }
  const created = release === null;
  const incoming = canonical(
    asObject(input.release, 'release'),
    input.tracks === undefined ? [] : asArray(input.tracks, 'tracks'),
  );
  const base: ReleasePayload = release?.payload ?? { release: {}, tracks: [] };
  const replace = input.mode === 'replace' || created;
  let payload: ReleasePayload = {
    release: replace
      ? incoming.release
      : (deepMerge(base.release, incoming.release) as Record<string, unknown>),
    tracks: replace || input.tracks !== undefined ? incoming.tracks : base.tracks,
    upload_requests:
      input.uploadRequests === undefined
        ? replace
          ? []
          : (base.upload_requests ?? [])
        : asArray(input.uploadRequests, 'upload_requests'),
  };
  if (input.trackPatches !== undefined) {
    payload = {
      ...payload,
      tracks: applyTrackPatches(payload.tracks, asArray(input.trackPatches, 'track_patches')),
    };
  }

  if (!release) {
    release = em.create(Release, {
      account: em.getReference(Account, accountId),
      conversationId: input.conversationId ?? null,
      payload,
      createdAt: now,
      updatedAt: now,
    });
  }
  release.payload = payload;
  release.revision += 1;
  release.draftStatus = input.status ?? (created ? 'collecting' : release.draftStatus);
  release.title = typeof payload.release.title === 'string' ? payload.release.title : null;
  release.primaryArtistName =
    typeof payload.release.primary_artist_name === 'string' ? payload.release.primary_artist_name : null;
  const snapshot = em.create(ReleaseSnapshot, {
    release,
    revision: release.revision,
    status: release.draftStatus,
    payload,
    createdAt: now,
  });
  await em.flush();

  const issues = await evaluateRules(
    normaliseSubmission(payload),
    ruleContextFor(em, accountId, { releaseId: release.id, now }),
  );
  return {
    releaseId: release.id,
    releaseCreated: created,
    snapshot: { revision: release.revision, snapshotId: snapshot.id, status: release.draftStatus },
    latest: {
      payload: payload.release,
      tracks: payload.tracks,
      uploadRequests: payload.upload_requests ?? [],
    },
    submittable: !hasErrors(issues) && payload.tracks.length > 0,
    submissionWarnings: issues,
  };
}

export type DraftResult = Awaited<ReturnType<typeof saveDraft>>;
