import type { Store } from '../catalog/index.ts';
import type { ReleaseInput } from '../releases/index.ts';
import { primaryArtistsOf } from '../releases/index.ts';
import { dealList, isUgcStore } from './ddex-deals.ts';
import { displayArtists, displayTitles } from './ddex-display.ts';
import { localNames, type PartyBook, partyBook } from './ddex-parties.ts';
import { type ReleaseProfile, releaseProfileOf } from './ddex-profile.ts';
import {
  type ErnImageFile,
  type ErnTrack,
  frontCoverImage,
  type ResourceDefaults,
  soundRecording,
} from './ddex-resources.ts';
import { isoDate, isoDuration, languageCode, text, year } from './ddex-values.ts';
import { type XmlNode, xml, xmlDocument, xmlText } from './xml.ts';

export type { ErnAudioFile, ErnImageFile, ErnTrack } from './ddex-resources.ts';
export { isoDuration };

export const ERN_NAMESPACE = 'http://ddex.net/xml/ern/43';
const ERN_SCHEMA_LOCATION = `${ERN_NAMESPACE} http://ddex.net/xml/ern/43/release-notification.xsd`;
/** The edition of DDEX's allowed-value sets the ERN 4.3 schema imports (and the messages use). */
const AVS_VERSION = '3';
/** Tributary's (sandbox) DDEX party id: `PADPIDA` plus 11 characters. */
export const SENDER_DPID = 'PADPIDA2026TRB0001';
const SENDER_NAME = 'Tributary';

export interface ErnRelease {
  id: string;
  title?: string | null;
  primaryArtistName?: string | null;
  payload: { release: Record<string, unknown> };
}

export interface NewReleaseMessageInput {
  release: ErnRelease;
  /** In track order, each with its stored audio file. */
  tracks: ErnTrack[];
  /** The stored front cover, when the release has one. */
  coverArt: ErnImageFile | null;
  store: Store;
  upc: string;
  /** One per track, same order. */
  isrcs: string[];
  messageId: string;
  createdAt: Date;
  ugcPolicy: string | null;
  /** Who the header names and whether the message is live; omitted, the sandbox's test header. */
  header?: MessageHeaderParties;
}

/** A connected store's header: the configured sender, the connection's recipient, a `LiveMessage`. */
export interface MessageHeaderParties {
  sender: { dpid: string; name: string };
  recipient: { dpid: string; name: string };
  live: boolean;
}

export interface TakedownMessageInput extends NewReleaseMessageInput {
  /** The day the store is to stop offering the release: every deal ends then. */
  takenDownAt: Date;
}

/** The store's recipient party id: `PADPIDA` and the store id on 11 digits. */
export function recipientDpid(store: Store): string {
  return `PADPIDA${String(store.storeId).padStart(11, '0')}`;
}

function messageHeader(input: NewReleaseMessageInput): XmlNode {
  const party = (tag: string, id: string, name: string) =>
    xml(tag, null, xml('PartyId', null, id), xml('PartyName', null, xml('FullName', null, name)));
  return xml(
    'MessageHeader',
    null,
    xml('MessageThreadId', null, input.messageId),
    xml('MessageId', null, input.messageId),
    party(
      'MessageSender',
      input.header?.sender.dpid ?? SENDER_DPID,
      input.header?.sender.name ?? SENDER_NAME,
    ),
    party(
      'MessageRecipient',
      input.header?.recipient.dpid ?? recipientDpid(input.store),
      input.header?.recipient.name ?? input.store.name,
    ),
    xml('MessageCreatedDateTime', null, input.createdAt.toISOString()),
    xml('MessageControlType', null, input.header?.live ? 'LiveMessage' : 'TestMessage'),
  );
}

/** What the Release and the TrackReleases share: label, genre, artists. */
interface ReleaseContext {
  meta: ReleaseInput;
  parties: PartyBook;
  artistNames: string[];
  labelReference: string;
  genre: XmlNode;
  coverReference: string | null;
}

function genreNode(genreText: string, subGenre: string | null): XmlNode {
  return xml('Genre', null, xml('GenreText', null, genreText), xmlText('SubGenre', subGenre));
}

function line(kind: 'PLine' | 'CLine', yearText: string | null, owner: string | null): XmlNode | null {
  if (!owner) return null;
  const symbol = kind === 'PLine' ? '℗' : '©';
  return xml(
    kind,
    null,
    xmlText('Year', yearText),
    xml(`${kind}Company`, null, owner),
    xml(`${kind}Text`, null, `${symbol} ${yearText ? `${yearText} ` : ''}${owner}`),
  );
}

function mainRelease(
  input: NewReleaseMessageInput,
  context: ReleaseContext,
  profile: ReleaseProfile,
  title: string,
): XmlNode {
  const { meta, parties } = context;
  const seconds = input.tracks.reduce((sum, track) => sum + track.audio.durationSeconds, 0);
  return xml(
    'Release',
    null,
    xml('ReleaseReference', null, 'R0'),
    xml('ReleaseType', null, profile.releaseType),
    xml('ReleaseId', null, xml('ICPN', null, input.upc)),
    ...displayTitles(title, text(meta.title_version), localNames(meta.title_locals)),
    ...displayArtists(parties, context.artistNames, meta.artist_locals),
    xml('ReleaseLabelReference', { ApplicableTerritoryCode: 'Worldwide' }, context.labelReference),
    line('PLine', year(meta.pline_year), text(meta.pline_owner)),
    line('CLine', year(meta.cline_year), text(meta.cline_owner)),
    xml('Duration', null, isoDuration(seconds)),
    context.genre,
    xmlText('ReleaseDate', isoDate(meta.release_date)),
    xml('ParentalWarningType', null, input.tracks.some((t) => t.explicit) ? 'Explicit' : 'NotExplicit'),
    xml(
      'ResourceGroup',
      null,
      ...input.tracks.map((_, index) =>
        xml(
          'ResourceGroupContentItem',
          null,
          xml('SequenceNumber', null, index + 1),
          xml('ReleaseResourceReference', null, `A${index + 1}`),
        ),
      ),
      context.coverReference
        ? xml('LinkedReleaseResourceReference', { LinkDescription: 'CoverArt' }, context.coverReference)
        : null,
    ),
  );
}

/**
 * A Track Release per track: identified, as DDEX's profiles ask, by a proprietary id made of the
 * release's UPC and the track's ISRC (an ISRC identifies the recording, never a release).
 */
function trackRelease(input: NewReleaseMessageInput, context: ReleaseContext, index: number): XmlNode {
  const track = input.tracks[index]!;
  const own = text(track.payload.genre);
  return xml(
    'TrackRelease',
    null,
    xml('ReleaseReference', null, `R${index + 1}`),
    xml(
      'ReleaseId',
      null,
      xml('ProprietaryId', { Namespace: SENDER_DPID }, `${input.upc}_${input.isrcs[index]}`),
    ),
    xml('ReleaseResourceReference', null, `A${index + 1}`),
    xml('ReleaseLabelReference', { ApplicableTerritoryCode: 'Worldwide' }, context.labelReference),
    own ? genreNode(own, null) : context.genre,
  );
}

function buildMessage(input: NewReleaseMessageInput, dealEnd: string | null): string {
  const { release, tracks, store } = input;
  const meta = release.payload.release as ReleaseInput;
  const parties = partyBook();
  const title = release.title ?? text(meta.title) ?? '';
  const listed = primaryArtistsOf(meta)
    .map((artist) => artist.name)
    .filter(Boolean);
  const artistNames = listed.length > 0 ? listed : [release.primaryArtistName ?? ''];
  const profile = releaseProfileOf(tracks.map((track) => track.audio.durationSeconds));
  const defaults: ResourceDefaults = {
    artistNames,
    senderDpid: SENDER_DPID,
    pline: { year: year(meta.pline_year), owner: text(meta.pline_owner) },
    contributors: meta.contributors,
    language: languageCode(meta.audio_language),
  };
  // Parties in the order a reader meets them: the release's artists and label first.
  for (const name of artistNames) parties.referenceOf(name);
  // A self-released record's label is its artist, so every release names one (ERN requires it).
  const labelReference = parties.referenceOf(text(meta.label) ?? artistNames[0]!);
  const resources = tracks.map((track, index) =>
    soundRecording(parties, track, input.isrcs[index]!, index, defaults),
  );
  const coverReference = input.coverArt ? `A${tracks.length + 1}` : null;
  const context: ReleaseContext = {
    meta,
    parties,
    artistNames,
    labelReference,
    genre: genreNode(text(meta.genre) ?? text(tracks[0]?.payload.genre) ?? 'Unknown', text(meta.sub_genre)),
    coverReference,
  };
  const trackReferences = profile.trackReleases ? tracks.map((_, index) => `R${index + 1}`) : [];
  const releases = [
    mainRelease(input, context, profile, title),
    ...trackReferences.map((_, index) => trackRelease(input, context, index)),
  ];
  // Rights claims match recordings: where there are track releases, the claims go with them.
  const dealReleases =
    isUgcStore(store) && trackReferences.length > 0 ? trackReferences : ['R0', ...trackReferences];
  const deals = dealList(store, input.ugcPolicy, dealReleases, {
    start: isoDate(meta.release_date) ?? input.createdAt.toISOString().slice(0, 10),
    end: dealEnd,
  });
  return xmlDocument(
    xml(
      'ern:NewReleaseMessage',
      {
        'xmlns:ern': ERN_NAMESPACE,
        'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
        'xsi:schemaLocation': ERN_SCHEMA_LOCATION,
        ReleaseProfileVersionId: profile.id,
        LanguageAndScriptCode:
          languageCode(meta.language_and_script_code) ?? languageCode(meta.metadata_language) ?? 'en',
        AvsVersionId: AVS_VERSION,
      },
      messageHeader(input),
      parties.node(),
      xml(
        'ResourceList',
        null,
        ...resources,
        input.coverArt && coverReference
          ? frontCoverImage(input.coverArt, coverReference, input.upc, SENDER_DPID)
          : null,
      ),
      xml('ReleaseList', null, ...releases),
      deals,
    ),
  );
}

/**
 * A DDEX ERN 4.3 NewReleaseMessage for one store under the release's profile (`ddex-profile.ts`): the
 * parties, one SoundRecording per track (ISRC, file with its SHA-256 and size) and the front cover,
 * the main Release (ICPN = UPC) with its Track Releases, and the store's deals worldwide (with its
 * rights-claim policy on user-generated-content platforms).
 */
export function buildNewReleaseMessage(input: NewReleaseMessageInput): string {
  return buildMessage(input, null);
}

/**
 * The takedown of the release at one store. ERN 4 has no takedown flag: the sender repeats the
 * release with every deal's validity ending on the takedown day, which replaces the deals the store
 * holds.
 */
export function buildTakedownMessage(input: TakedownMessageInput): string {
  return buildMessage(input, input.takenDownAt.toISOString().slice(0, 10));
}
