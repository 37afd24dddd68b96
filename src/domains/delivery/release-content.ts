import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findStore } from '../catalog/index.ts';
import type { Release } from '../releases/index.ts';
import { assignIsrc, assignUpc, ReleaseTrack } from '../releases/index.ts';
import type { StoredFile } from '../uploads/index.ts';
import { findOwnedFiles } from '../uploads/index.ts';
import {
  buildNewReleaseMessage,
  buildTakedownMessage,
  type ErnAudioFile,
  type ErnImageFile,
  type MessageHeaderParties,
  type NewReleaseMessageInput,
} from './ddex.ts';

/** A file of the release's DDEX package: where the message puts it, and the stored file it is. */
export interface PackageFile {
  /** Relative to the message, as its `File/URI` says: `resources/<file>`. */
  path: string;
  storageKey: string;
  sha256: string;
  size: number;
}

/** What every store's message is built from: the tracks in order, with their identifiers and files. */
export interface ReleaseContent {
  release: Release;
  tracks: ReleaseTrack[];
  /** One per track, same order. */
  audio: ErnAudioFile[];
  coverArt: ErnImageFile | null;
  files: PackageFile[];
}

export async function tracksOf(em: EntityManager, release: Release): Promise<ReleaseTrack[]> {
  return em.find(ReleaseTrack, { release: release.id }, { orderBy: { position: 'asc' } });
}

/**
 * Gives the release a UPC and every track an ISRC where the submission had none. The codes derive
 * from the release id, so a retried submission assigns the same ones.
 */
export function assignIdentifiers(release: Release, tracks: readonly ReleaseTrack[]): void {
  const year = (release.submittedAt ?? release.createdAt).getUTCFullYear();
  release.upc ??= assignUpc(release.id);
  for (const track of tracks) track.isrc ??= assignIsrc(release.id, track.position, year);
}

/**
 * Package names the way DDEX's samples lay them out: `<UPC>_01_<track, 3 digits>` for the audio
 * (one volume), `<UPC>` for the front cover, with the stored file's extension.
 */
export function packagePath(upc: string, file: StoredFile, trackIndex: number | null): string {
  const extension = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.')) : '';
  const base = trackIndex === null ? upc : `${upc}_01_${String(trackIndex + 1).padStart(3, '0')}`;
  return `resources/${base}${extension}`;
}

const media = (file: StoredFile) => file.media as Record<string, unknown>;
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function audioFile(upc: string, file: StoredFile, index: number): ErnAudioFile {
  const facts = media(file);
  const seconds = count(facts.durationSeconds);
  if (seconds === null) throw new Error(`The audio file ${file.name} has no recorded duration.`);
  return {
    uri: packagePath(upc, file, index),
    sha256: file.sha256,
    size: file.size,
    durationSeconds: seconds,
    sampleRate: count(facts.sampleRate),
    bitDepth: count(facts.bitDepth),
    channels: count(facts.channels),
  };
}

/**
 * The release's tracks and stored files (one statement for the files). Submission only accepts files
 * the account owns, and stored files are never deleted, so a missing one is a broken invariant: it
 * throws rather than describe a package without it.
 */
export async function loadContent(em: EntityManager, release: Release): Promise<ReleaseContent> {
  const tracks = await tracksOf(em, release);
  assignIdentifiers(release, tracks);
  const upc = release.upc!;
  const accountId = release.account.id;
  const coverUrl = release.payload.release.cover_art_file_url;
  const urls = [
    ...tracks.map((track) => track.audioFileUrl),
    ...(typeof coverUrl === 'string' ? [coverUrl] : []),
  ];
  const found = await findOwnedFiles(
    em,
    urls.map((fileUrl) => ({ accountId, fileUrl })),
  );
  const audio = tracks.map((track, index) => {
    const file = found[index];
    if (file?.store !== 'audio')
      throw new Error(
        `Track ${index + 1} of release ${release.id}: no stored audio at ${track.audioFileUrl}.`,
      );
    return { stored: file, ern: audioFile(upc, file, index) };
  });
  const cover = found[tracks.length];
  const coverArt: ErnImageFile | null =
    cover?.store === 'cover-art'
      ? {
          uri: packagePath(upc, cover, null),
          sha256: cover.sha256,
          size: cover.size,
          width: count(media(cover).width),
          height: count(media(cover).height),
        }
      : null;
  const packaged = audio.map(({ stored, ern }) => packageFile(stored, ern.uri));
  if (cover && coverArt) packaged.push(packageFile(cover, coverArt.uri));
  return { release, tracks, audio: audio.map(({ ern }) => ern), coverArt, files: packaged };
}

function packageFile(stored: StoredFile, path: string): PackageFile {
  return { path, storageKey: stored.storageKey, sha256: stored.sha256, size: stored.size };
}

function messageInput(
  content: ReleaseContent,
  storeId: number,
  ugcPolicy: string | null,
  now: Date,
  header?: MessageHeaderParties,
): NewReleaseMessageInput {
  const store = findStore(storeId);
  if (!store) throw new Error(`unknown store ${storeId}`);
  const { release, tracks } = content;
  return {
    release,
    tracks: tracks.map((track, index) => ({
      position: track.position,
      title: track.title,
      titleVersion: track.titleVersion,
      explicit: track.explicit,
      payload: track.payload,
      audio: content.audio[index]!,
    })),
    coverArt: content.coverArt,
    store,
    upc: release.upc ?? assignUpc(release.id),
    isrcs: tracks.map((track) => track.isrc ?? ''),
    messageId: randomUUID(),
    createdAt: now,
    ugcPolicy,
    ...(header ? { header } : {}),
  };
}

/** The ERN NewReleaseMessage of the release for one store. */
export function messageFor(
  content: ReleaseContent,
  storeId: number,
  ugcPolicy: string | null,
  now: Date,
  header?: MessageHeaderParties,
) {
  return buildNewReleaseMessage(messageInput(content, storeId, ugcPolicy, now, header));
}

/** The ERN message that takes the release down at one store from `now` (its deals end that day). */
export function takedownMessageFor(
  content: ReleaseContent,
  storeId: number,
  ugcPolicy: string | null,
  now: Date,
  header?: MessageHeaderParties,
) {
  return buildTakedownMessage({
    ...messageInput(content, storeId, ugcPolicy, now, header),
    takenDownAt: now,
  });
}
