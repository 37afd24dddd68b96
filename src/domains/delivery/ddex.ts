import type { Store } from '../catalog/stores.ts';
import { primaryArtistsOf } from '../releases/release-artists.ts';
import type { ReleaseInput } from '../releases/rules/engine/types.ts';
import { type XmlChild, type XmlNode, xml, xmlDocument, xmlText } from './xml.ts';

export const ERN_NAMESPACE = 'http://ddex.net/xml/ern/43';
const ERN_SCHEMA_LOCATION = `${ERN_NAMESPACE} http://ddex.net/xml/ern/43/release-notification.xsd`;
/** Tributary's (sandbox) DDEX party id: `PADPIDA` plus 11 characters. */
export const SENDER_DPID = 'PADPIDA2026TRB0001';
const SENDER_NAME = 'Tributary';

export interface ErnTrack {
  position: number;
  title: string;
  titleVersion?: string | null;
  explicit: boolean;
  payload: Record<string, unknown>;
}

export interface ErnRelease {
  id: string;
  title?: string | null;
  primaryArtistName?: string | null;
  payload: { release: Record<string, unknown> };
}

export interface NewReleaseMessageInput {
  release: ErnRelease;
  /** In track order. */
  tracks: ErnTrack[];
  store: Store;
  upc: string;
  /** One per track, same order. */
  isrcs: string[];
  /** Seconds per track, same order, where known. */
  durations?: (number | null)[];
  messageId: string;
  createdAt: Date;
  ugcPolicy: string | null;
}

interface DealModel {
  commercialModel: string;
  useTypes: string[];
}

/** What each kind of store is licensed for. */
function dealModelsFor(store: Store): DealModel[] {
  switch (store.kind) {
    case 'download':
      return [{ commercialModel: 'PayAsYouGoModel', useTypes: ['PermanentDownload'] }];
    case 'social':
    case 'video':
    case 'content_id':
      return [{ commercialModel: 'RightsClaimModel', useTypes: ['UserMakeAvailableUserProvided'] }];
    default:
      return [
        { commercialModel: 'SubscriptionModel', useTypes: ['OnDemandStream', 'NonInteractiveStream'] },
        { commercialModel: 'AdvertisementSupportedModel', useTypes: ['OnDemandStream'] },
      ];
  }
}

/** DDEX rights-claim policy types for the catalog's UGC policy codes. */
const RIGHTS_CLAIM_POLICY: Record<string, string> = {
  monetize: 'Monetize',
  claim_ad_earnings: 'Monetize',
  track: 'Monitor',
  monitor: 'Monitor',
  block: 'BlockAccess',
};

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** ISO 8601 duration, whole seconds: `PT3M20S`. */
export function isoDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

function releaseType(trackCount: number): string {
  if (trackCount <= 3) return 'Single';
  if (trackCount <= 6) return 'EP';
  return 'Album';
}

function titleWithVersion(title: string, version: string | null | undefined): XmlNode {
  return xml('DisplayTitle', null, xmlText('TitleText', title), xmlText('SubTitle', version));
}

function displayArtists(references: string[]): XmlNode[] {
  return references.map((reference, index) =>
    xml(
      'DisplayArtist',
      { SequenceNumber: index + 1 },
      xml('ArtistPartyReference', null, reference),
      xml('DisplayArtistRole', null, index === 0 ? 'MainArtist' : 'FeaturedArtist'),
    ),
  );
}

function line(kind: 'PLine' | 'CLine', year: string | null, owner: string | null): XmlNode | null {
  if (!owner) return null;
  const symbol = kind === 'PLine' ? '℗' : '©';
  return xml(
    kind,
    null,
    xmlText('Year', year),
    xmlText(`${kind}Text`, `${symbol} ${year ? `${year} ` : ''}${owner}`),
  );
}

function genre(genreText: string | null, subGenre: string | null): XmlNode | null {
  if (!genreText) return null;
  return xml('Genre', null, xmlText('GenreText', genreText), xmlText('SubGenre', subGenre));
}

/**
 * A DDEX ERN 4.3 NewReleaseMessage for one store: the parties, one SoundRecording per track, the main
 * Release (ICPN = UPC) with a TrackRelease per track, and a Worldwide deal per release for the
 * store's commercial models (plus its rights-claim policy on user-generated-content platforms).
 */
export function buildNewReleaseMessage(input: NewReleaseMessageInput): string {
  const { release, tracks, store, upc, isrcs } = input;
  const meta = release.payload.release as ReleaseInput;
  const title = release.title ?? text(meta.title) ?? '';
  const artists = primaryArtistsOf(meta).filter((artist) => artist.name);
  const artistName = release.primaryArtistName ?? artists[0]?.name ?? '';
  const artistParties = (artists.length > 0 ? artists.map((a) => a.name) : [artistName]).map((name, i) => ({
    reference: `PArtist${i + 1}`,
    name,
  }));
  const label = text(meta.label);
  const releaseDate = text(meta.release_date);
  const genreNode = genre(text(meta.genre), text(meta.sub_genre));
  const artistRefs = artistParties.map((party) => party.reference);
  const resourceRef = (index: number) => `A${index + 1}`;
  const releaseRef = (index: number) => `R${index + 1}`;

  const header = xml(
    'MessageHeader',
    null,
    xml('MessageThreadId', null, input.messageId),
    xml('MessageId', null, input.messageId),
    xml(
      'MessageSender',
      null,
      xml('PartyId', null, SENDER_DPID),
      xml('PartyName', null, xml('FullName', null, SENDER_NAME)),
    ),
    xml(
      'MessageRecipient',
      null,
      xml('PartyId', null, `PADPIDA${String(store.storeId).padStart(11, '0')}`),
      xml('PartyName', null, xml('FullName', null, store.name)),
    ),
    xml('MessageCreatedDateTime', null, input.createdAt.toISOString()),
    xml('MessageControlType', null, 'TestMessage'),
  );

  const parties = xml(
    'PartyList',
    null,
    ...artistParties.map((party) =>
      xml(
        'Party',
        null,
        xml('PartyReference', null, party.reference),
        xml('PartyName', null, xml('FullName', null, party.name)),
      ),
    ),
    label
      ? xml(
          'Party',
          null,
          xml('PartyReference', null, 'PLabel'),
          xml('PartyName', null, xml('FullName', null, label)),
        )
      : null,
  );

  const resources = xml(
    'ResourceList',
    null,
    ...tracks.map((track, index) => {
      const trackMeta = track.payload;
      const duration = input.durations?.[index];
      return xml(
        'SoundRecording',
        null,
        xml('ResourceReference', null, resourceRef(index)),
        xml('Type', null, 'MusicalWorkSoundRecording'),
        xml('SoundRecordingEdition', null, xml('ResourceId', null, xmlText('ISRC', isrcs[index]))),
        xml('DisplayTitleText', null, track.title),
        titleWithVersion(track.title, track.titleVersion),
        xml('DisplayArtistName', null, text(trackMeta.primary_artist_name) ?? artistName),
        ...displayArtists(artistRefs),
        line('PLine', text(trackMeta.pline_year) ?? text(meta.pline_year), text(trackMeta.pline_owner)),
        typeof duration === 'number' && Number.isFinite(duration)
          ? xml('Duration', null, isoDuration(duration))
          : null,
        xml('ParentalWarningType', null, track.explicit ? 'Explicit' : 'NotExplicit'),
        xmlText('LanguageOfPerformance', text(trackMeta.language)),
      );
    }),
  );

  const mainRelease = xml(
    'Release',
    null,
    xml('ReleaseReference', null, 'R0'),
    xml('ReleaseType', null, releaseType(tracks.length)),
    xml('ReleaseId', null, xml('ICPN', null, upc)),
    xml('DisplayTitleText', null, title),
    titleWithVersion(title, text(meta.title_version)),
    xml('DisplayArtistName', null, artistName),
    ...displayArtists(artistRefs),
    label ? xml('ReleaseLabelReference', null, 'PLabel') : null,
    line('PLine', text(meta.pline_year), text(meta.pline_owner)),
    line('CLine', text(meta.cline_year), text(meta.cline_owner)),
    genreNode,
    xmlText('ReleaseDate', releaseDate),
    xml('ParentalWarningType', null, tracks.some((t) => t.explicit) ? 'Explicit' : 'NotExplicit'),
    xml(
      'ResourceGroup',
      null,
      ...tracks.map((_, index) =>
        xml(
          'ResourceGroupContentItem',
          null,
          xml('SequenceNumber', null, index + 1),
          xml('ReleaseResourceReference', null, resourceRef(index)),
        ),
      ),
    ),
  );

  const trackReleases = tracks.map((track, index) =>
    xml(
      'TrackRelease',
      null,
      xml('ReleaseReference', null, releaseRef(index)),
      xml('ReleaseId', null, xmlText('ISRC', isrcs[index])),
      xml('DisplayTitleText', null, track.title),
      xml('ReleaseResourceReference', null, resourceRef(index)),
      label ? xml('ReleaseLabelReference', null, 'PLabel') : null,
      genre(text(track.payload.genre) ?? text(meta.genre), text(meta.sub_genre)),
    ),
  );

  const deal = (): XmlNode[] =>
    dealModelsFor(store).map((model) =>
      xml(
        'Deal',
        null,
        xml(
          'DealTerms',
          null,
          xml('TerritoryCode', null, 'Worldwide'),
          xml(
            'ValidityPeriod',
            null,
            xmlText('StartDate', releaseDate ?? input.createdAt.toISOString().slice(0, 10)),
          ),
          xml('CommercialModelType', null, model.commercialModel),
          ...model.useTypes.map((useType) => xml('UseType', null, useType)),
          rightsClaimPolicy(model, input.ugcPolicy),
        ),
      ),
    );

  const deals = xml(
    'DealList',
    null,
    ...['R0', ...tracks.map((_, index) => releaseRef(index))].map((reference) =>
      xml('ReleaseDeal', null, xml('DealReleaseReference', null, reference), ...deal()),
    ),
  );

  return xmlDocument(
    xml(
      'ern:NewReleaseMessage',
      {
        'xmlns:ern': ERN_NAMESPACE,
        'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
        'xsi:schemaLocation': ERN_SCHEMA_LOCATION,
        LanguageAndScriptCode: text(meta.language_and_script_code) ?? text(meta.metadata_language) ?? 'en',
        AvsVersionId: '4',
      },
      header,
      parties,
      resources,
      xml('ReleaseList', null, mainRelease, ...trackReleases),
      deals,
    ),
  );
}

function rightsClaimPolicy(model: DealModel, ugcPolicy: string | null): XmlChild {
  if (model.commercialModel !== 'RightsClaimModel' || !ugcPolicy) return null;
  const known = RIGHTS_CLAIM_POLICY[ugcPolicy];
  return xml(
    'RightsClaimPolicy',
    null,
    known
      ? xml('RightsClaimPolicyType', null, known)
      : xml(
          'RightsClaimPolicyType',
          { Namespace: 'DPID:PADPIDA2026TRB0001', UserDefinedValue: ugcPolicy },
          'UserDefined',
        ),
  );
}
