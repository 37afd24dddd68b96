import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type InsertPart,
  type InsertRow,
  insertTogether,
  JsonText,
  rowsOf,
  runSql,
} from '../../platform/db/direct-sql.ts';
import { AppError, conflict, invalidRequest, validationFailed } from '../../platform/errors.ts';
import { Account } from '../accounts/index.ts';
import type { AudioDeps } from '../audio/index.ts';
import {
  CHECKOUT_TOOL,
  CUSTOM_CHECKOUT_CREDITS,
  InsufficientCreditsError,
  moveAndRecordCredits,
} from '../credits/index.ts';
import { assignUpc, isrcAssigner } from './assigned-identifiers.ts';
import { balanceFor, type Charges, chargesFor, purchaseFor } from './billing.ts';
import { findOwnedRelease } from './find-release.ts';
import { IdempotencyKey } from './idempotency-key.entity.ts';
import { Release } from './release.entity.ts';
import { ReleaseArtist } from './release-artist.entity.ts';
import { primaryArtistsOf } from './release-artists.ts';
import { ReleaseSnapshot } from './release-snapshot.entity.ts';
import { ReleaseTrack } from './release-track.entity.ts';
import { requestHash } from './request-hash.ts';
import { ruleContextFor } from './rule-context.ts';
import { evaluateRules, normaliseSubmission, prepareForSubmission } from './rules/engine/index.ts';
import type { NormalisedSubmission, RuleIssue } from './rules/engine/types.ts';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export interface SubmitInput {
  release: unknown;
  tracks: unknown;
  releaseId?: string | null;
  conversationId?: string | null;
  tokenOffset?: boolean | null;
  distributors?: unknown;
  skipAdapters?: boolean | null;
}

export interface SubmitOptions {
  idempotencyKey?: string | null;
  provenance?: string | null;
  now?: Date;
  /**
   * Hands the submitted release over for delivery, in the submission's transaction once its rows are
   * written (the caller wires the distributor): a release is never submitted without being handed
   * over, nor the other way round.
   */
  handOver: (em: EntityManager, release: Readonly<Release>, at: Date) => Promise<unknown>;
  /** Detects the AI verdict of audio that has none cached yet (billing uses it). */
  audio?: Omit<AudioDeps, 'em'>;
}

export interface SubmitResult {
  release: Release;
  charges: Charges | null;
  creditsCharged: number;
  balanceAfter: number;
  /** True when this call found the release already submitted (a retry): nothing was charged. */
  alreadySubmitted: boolean;
  warnings: RuleIssue[];
}

/**
 * Submits a release and pays for it, all or nothing: the release, its tracks and artists, the debit
 * (ref `release:<id>`) and the token-offset debit (ref `token_offset:<id>`) commit in one transaction.
 * A release is charged once: re-submitting it, or retrying with the same Idempotency-Key, charges nothing.
 */
export async function submitRelease(
  em: EntityManager,
  accountId: string,
  input: SubmitInput,
  options: SubmitOptions,
): Promise<SubmitResult> {
  const now = options.now ?? new Date();
  if (!Array.isArray(input.tracks))
    throw invalidRequest('tracks must be an array.', [{ path: 'tracks', message: 'required array' }]);
  if (typeof input.release !== 'object' || input.release === null || Array.isArray(input.release)) {
    throw invalidRequest('release must be an object.', [{ path: 'release', message: 'required object' }]);
  }
  const key = options.idempotencyKey?.trim() || null;
  // Only a key is compared with its first request's body.
  const hash = key ? requestHash(input) : '';
  // The key's row is read while the submission is checked (their statements go out together); a
  // replay still answers first, whatever the checks found.
  const recorded = key ? readIdempotencyKey(em, accountId, key) : null;
  const checking = checkSubmission(em, accountId, input, options, now).then(
    (checked) => ({ checked }),
    (error: unknown) => ({ error }),
  );
  if (key && recorded) {
    const replay = await replayOf(em, accountId, key, hash, now, await recorded);
    if (replay) return replay;
  }
  const outcome = await checking;
  if ('error' in outcome) throw outcome.error;
  if ('already' in outcome.checked) return outcome.checked.already;
  const { existing, issues, prepared, charges } = outcome.checked;

  try {
    // The transaction's fork starts with nothing loaded (`clear`): its unit of work holds a draft being
    // submitted at most, never the rows below.
    return await em.transactional(
      async (tem) => {
        const draft = existing ? await findOwnedRelease(tem, accountId, existing.id, { lock: true }) : null;
        if (draft?.status === 'submitted') return already(tem, draft, accountId);
        const releaseId = draft?.id ?? randomUUID();
        // The key is written with the submission's rows: a concurrent first use of the same key waits
        // on its unique index in that statement, and fails with it, nothing written.
        const keyRow = key ? { account: accountId, key, requestHash: hash, releaseId, createdAt: now } : null;
        const submitted = await writeSubmission(tem, accountId, releaseId, draft, {
          prepared,
          input,
          options,
          charges,
          now,
          keyRow,
        });
        // The hand-over commits with the submission: no release waits unqueued.
        await options.handOver(tem, submitted, now);
        // The debit comes last: it takes the account's row (the balance lock) until the commit, so
        // another submission for the same account waits for this one's debit (its ledger row written by
        // the same statement) and commit only, not for everything above. A debit refused for want of
        // credits rolls all of it back.
        const balanceAfter = await debit(tem, accountId, submitted.id, charges, now);
        return {
          release: submitted,
          charges,
          creditsCharged: charges.totalCredits,
          balanceAfter,
          alreadySubmitted: false,
          warnings: issues,
        };
      },
      { clear: true },
    );
  } catch (error) {
    // A concurrent request with the same key committed first: answer as its replay. This one waited
    // on the key's unique index (written before the debit) and failed there; a failed debit is looked
    // up as a replay too, so a retry never answers insufficient_credits for a submission that went
    // through, whatever the order of the writes.
    if (
      key &&
      (error instanceof UniqueConstraintViolationException || error instanceof InsufficientCreditsError)
    ) {
      const fork = em.fork();
      const replay = await replayOf(
        fork,
        accountId,
        key,
        hash,
        now,
        await readIdempotencyKey(fork, accountId, key),
      );
      if (replay) return replay;
    }
    if (error instanceof InsufficientCreditsError) throw insufficient(charges, error);
    throw error;
  }
}

interface CheckedSubmission {
  existing: Release | null;
  issues: RuleIssue[];
  prepared: NormalisedSubmission;
  charges: Charges;
}

/**
 * What the submission is before anything is written: the draft it completes (or the answer when that
 * release is submitted already), its rule issues (an error among them fails it with every path), the
 * normalised payload and its price.
 */
async function checkSubmission(
  em: EntityManager,
  accountId: string,
  input: SubmitInput,
  options: SubmitOptions,
  now: Date,
): Promise<CheckedSubmission | { already: SubmitResult }> {
  const existing = await existingRelease(em, accountId, input);
  if (existing?.status === 'submitted') return { already: await already(em, existing, accountId) };

  const submission = normaliseSubmission({ release: input.release, tracks: input.tracks });
  const ctx = ruleContextFor(em, accountId, { releaseId: existing?.id, now, audio: options.audio });
  const issues = await evaluateRules(submission, ctx);
  const errors = issues.filter((issue) => issue.severity === 'error');
  if (errors.length > 0) {
    throw validationFailed(
      `The release breaks ${errors.length} rule${errors.length === 1 ? '' : 's'}; every offending field is listed in details.`,
      errors.map((e) => ({ path: e.path, message: e.message, rule: e.rule })),
    );
  }
  const prepared = prepareForSubmission(submission);
  const charges = await chargesFor(prepared.tracks, input.tokenOffset === true, ctx);
  return { existing, issues, prepared, charges };
}

async function existingRelease(
  em: EntityManager,
  accountId: string,
  input: SubmitInput,
): Promise<Release | null> {
  if (input.releaseId) return findOwnedRelease(em, accountId, input.releaseId);
  if (input.conversationId)
    return em.findOne(Release, { account: accountId, conversationId: input.conversationId });
  return null;
}

async function already(em: EntityManager, release: Release, accountId: string): Promise<SubmitResult> {
  const account = await em.findOneOrFail(Account, { id: accountId }, { disableIdentityMap: true });
  return {
    release,
    charges: null,
    creditsCharged: 0,
    balanceAfter: account.creditBalance,
    alreadySubmitted: true,
    warnings: [],
  };
}

interface IdempotencyRecord {
  request_hash: string;
  release_id: string;
  created_at: string;
}

async function readIdempotencyKey(
  em: EntityManager,
  accountId: string,
  key: string,
): Promise<IdempotencyRecord | null> {
  // The ORM's connection reads timestamps as text: the row's created_at is parsed by replayOf.
  const [record] = await runSql<IdempotencyRecord>(
    em,
    'select request_hash, release_id, created_at from idempotency_keys where account_id = $1 and key = $2',
    [accountId, key],
  );
  return record ?? null;
}

/** The answer a key's first request gets again; null when the key is new or expired (then deleted). */
async function replayOf(
  em: EntityManager,
  accountId: string,
  key: string,
  hash: string,
  now: Date,
  record: IdempotencyRecord | null,
): Promise<SubmitResult | null> {
  if (!record) return null;
  if (now.getTime() - new Date(record.created_at).getTime() > IDEMPOTENCY_WINDOW_MS) {
    await em.nativeDelete(IdempotencyKey, { account: accountId, key });
    return null;
  }
  if (record.request_hash !== hash) {
    throw conflict(
      'This Idempotency-Key was used with a different request body; use a new key for a new request.',
      'idempotency_key_reused',
    );
  }
  const release = await findOwnedRelease(em, accountId, record.release_id);
  return already(em, release, accountId);
}

interface Submission {
  prepared: NormalisedSubmission;
  input: SubmitInput;
  options: SubmitOptions;
  charges: Charges;
  now: Date;
  /** The Idempotency-Key's row, when the request has a key. */
  keyRow: InsertRow<IdempotencyKey> | null;
}

/**
 * Writes the submitted release and its rows in one statement (`insertTogether`): the Idempotency-Key,
 * the release (a draft's UPDATE goes first, through the unit of work, which holds nothing else), its
 * tracks, its artists and its snapshot, written directly: no entity per row, no change set to compute.
 * The UPC and the ISRCs the submission lacks are assigned here, from the release id, so a retry
 * assigns the same ones. The payload is serialised once: each track's text is its row's payload and a
 * part of the release's, which the snapshot repeats. Returns the release as an entity; a new one is
 * not managed (nothing after this changes it: the hand-over and the debit write their own rows).
 */
async function writeSubmission(
  em: EntityManager,
  accountId: string,
  id: string,
  draft: Release | null,
  { prepared, input, options, charges, now, keyRow }: Submission,
): Promise<Release> {
  const payload = {
    release: prepared.release as Record<string, unknown>,
    tracks: prepared.tracks as Record<string, unknown>[],
  };
  const trackTexts = payload.tracks.map((track) => JSON.stringify(track));
  const payloadText = new JsonText(
    `{"release":${JSON.stringify(payload.release)},"tracks":[${trackTexts.join(',')}]}`,
  );
  const storeIds = prepared.release.distribution_store_ids;
  const submitted = {
    status: 'submitted' as const,
    payload,
    revision: (draft?.revision ?? 0) + 1,
    draftStatus: 'submitted',
    title: String(prepared.release.title ?? ''),
    primaryArtistName: String(prepared.release.primary_artist_name ?? ''),
    distributionStoreIds: Array.isArray(storeIds) ? storeIds.map(Number) : null,
    tokenOffset: input.tokenOffset === true,
    creditsSpent: charges.totalCredits,
    provenance: options.provenance?.trim() || 'MCP',
    aggregateStatus: 'queued' as const,
    upc: (typeof prepared.release.upc === 'string' ? prepared.release.upc : null) ?? assignUpc(id),
    submittedAt: now,
  };
  const parts: InsertPart[] = keyRow ? [rowsOf(IdempotencyKey, [keyRow])] : [];
  let release: Release;
  if (draft) {
    Object.assign(draft, submitted);
    await em.flush();
    release = draft;
  } else {
    const row = {
      id,
      conversationId: input.conversationId ?? null,
      ugcPolicies: null,
      ...submitted,
      createdAt: now,
      updatedAt: now,
    };
    parts.push(rowsOf(Release, [{ ...row, payload: payloadText, account: accountId }]));
    release = em.create(Release, { ...row, account: accountId }, { persist: false });
  }
  parts.push(
    rowsOf(ReleaseTrack, trackRows(id, prepared, trackTexts, charges, now)),
    rowsOf(
      ReleaseArtist,
      primaryArtistsOf(prepared.release).map((artist, position) => ({ release: id, position, ...artist })),
    ),
    rowsOf(ReleaseSnapshot, [
      { release: id, revision: release.revision, status: 'submitted', payload: payloadText, createdAt: now },
    ]),
  );
  await insertTogether(em, parts);
  return release;
}

/** The release's tracks as rows, with what each was billed and its ISRC (assigned when it had none). */
function trackRows(
  releaseId: string,
  prepared: NormalisedSubmission,
  trackTexts: readonly string[],
  charges: Charges,
  now: Date,
): InsertRow<ReleaseTrack>[] {
  const isrcOf = isrcAssigner(releaseId, now.getUTCFullYear());
  return prepared.tracks.map((track, position) => {
    const charge = charges.tracks[position];
    return {
      release: releaseId,
      position,
      title: String(track.title ?? ''),
      titleVersion: typeof track.title_version === 'string' ? track.title_version : null,
      isrc: typeof track.isrc === 'string' && track.isrc ? track.isrc : isrcOf(position),
      audioFileUrl: String(track.audio_file_url ?? ''),
      explicit: track.explicit_flag === true,
      trackType: typeof track.track_type === 'string' ? track.track_type : 'original',
      ai: charge?.ai ?? false,
      credits: charge?.credits ?? 0,
      payload: new JsonText(trackTexts[position]!),
    };
  });
}

/**
 * Takes the submission's credits: one statement per charge (the tracks, then the token offset) moves
 * the balance and writes its ledger row. Returns the balance after the last one.
 */
async function debit(
  em: EntityManager,
  accountId: string,
  releaseId: string,
  charges: Charges,
  now: Date,
): Promise<number> {
  const moves = [
    { amount: charges.trackCredits, ref: `release:${releaseId}` },
    { amount: charges.tokenOffsetCredits, ref: `token_offset:${releaseId}` },
  ].filter((move) => move.amount > 0);
  let balanceAfter: number | null = null;
  for (const move of moves) {
    balanceAfter = await moveAndRecordCredits(
      em,
      { accountId, type: 'debit', amount: -move.amount, ref: move.ref },
      now,
    );
  }
  return (
    balanceAfter ??
    (await em.findOneOrFail(Account, { id: accountId }, { disableIdentityMap: true })).creditBalance
  );
}

function insufficient(charges: Charges, error: InsufficientCreditsError): AppError {
  const available = charges.totalCredits - error.shortfall;
  const balance = balanceFor(available, charges.totalCredits);
  const bundle = purchaseFor(balance.shortfallCredits);
  const buy = bundle
    ? `The ${bundle.packageId} bundle (${bundle.credits} credits, $${bundle.priceUsd.toFixed(2)}) covers it: POST /v1/credits/checkout {"package_id":"${bundle.packageId}"} (agent tool ${CHECKOUT_TOOL} with packageId ${bundle.packageId}).`
    : `Buy at least ${balance.shortfallCredits} credits: POST /v1/credits/checkout {"credits":${Math.min(balance.shortfallCredits, CUSTOM_CHECKOUT_CREDITS.max)}} (agent tool ${CHECKOUT_TOOL}).`;
  const offer = ` ${buy} A saved card with auto-reload (POST /v1/me/autoreload) keeps the balance topped up.`;
  return new AppError(
    'conflict_error',
    'insufficient_credits',
    `Not enough credits: this release costs ${charges.totalCredits}, the balance is ${available}, ${balance.shortfallCredits} short.${offer}`,
    {
      details: [
        {
          path: 'credits',
          message: `short ${balance.shortfallCredits}${bundle ? `; bundle ${bundle.packageId}` : ''}`,
        },
      ],
    },
  );
}
