import { artistNamesOf, displayArtists, displayTitles } from './ddex-display.ts';
import { localNames, type PartyBook } from './ddex-parties.ts';
import { contributorRole, isoDuration, languageCode, text, year } from './ddex-values.ts';
import { type XmlNode, xml, xmlText } from './xml.ts';

/** A file of the DDEX package, named as the message names it (`resources/<file>`). */
export interface ErnResourceFile {
  uri: string;
  /** Hex SHA-256 of the file's bytes, as stored at upload. */
  sha256: string;
  size: number;
}

export interface ErnAudioFile extends ErnResourceFile {
  durationSeconds: number;
  sampleRate?: number | null;
  bitDepth?: number | null;
  channels?: number | null;
}

export interface ErnImageFile extends ErnResourceFile {
  width?: number | null;
  height?: number | null;
}

export interface ErnTrack {
  position: number;
  title: string;
  titleVersion?: string | null;
  explicit: boolean;
  payload: Record<string, unknown>;
  audio: ErnAudioFile;
}

/** What a sound recording takes from the release when the track says nothing. */
export interface ResourceDefaults {
  artistNames: string[];
  senderDpid: string;
  pline: { year: string | null; owner: string | null };
  contributors: unknown;
  language: string | null;
}

/** Seconds into the track where the store's preview starts when the track names none. */
const DEFAULT_PREVIEW_START = 15;

function fileNode(file: ErnResourceFile): XmlNode {
  return xml(
    'File',
    null,
    xml('URI', null, file.uri),
    xml('HashSum', null, xml('Algorithm', null, 'SHA-256'), xml('HashSumValue', null, file.sha256)),
    xml('FileSize', null, file.size),
  );
}

function pline(yearText: string | null, owner: string | null): XmlNode | null {
  if (!owner) return null;
  return xml(
    'PLine',
    null,
    xmlText('Year', yearText),
    xml('PLineCompany', null, owner),
    xml('PLineText', null, `℗ ${yearText ? `${yearText} ` : ''}${owner}`),
  );
}

function previewClip(track: ErnTrack, reference: string): XmlNode {
  const asked = track.payload.preview_start_seconds;
  const start =
    typeof asked === 'number' && Number.isFinite(asked) && asked >= 0 ? asked : DEFAULT_PREVIEW_START;
  return xml(
    'ClipDetails',
    null,
    xml('TechnicalResourceDetailsReference', null, `${reference}C`),
    xml('ClipType', null, 'Preview'),
    xml('Timing', null, xml('StartPoint', null, start < track.audio.durationSeconds ? start : 0)),
    xml('ExpressionType', null, 'Instructive'),
  );
}

function audioDetails(track: ErnTrack, reference: string): XmlNode {
  const { audio } = track;
  return xml(
    'TechnicalDetails',
    null,
    xml('TechnicalResourceDetailsReference', null, reference),
    xml(
      'DeliveryFile',
      null,
      xml('Type', null, 'AudioFile'),
      xml('AudioCodecType', null, 'FLAC'),
      xmlText('NumberOfChannels', audio.channels),
      audio.sampleRate ? xml('SamplingRate', { UnitOfMeasure: 'Hz' }, audio.sampleRate) : null,
      xmlText('BitsPerSample', audio.bitDepth),
      fileNode(audio),
    ),
    previewClip(track, reference),
  );
}

/**
 * One Contributor per party, with every role it played (writers as `ComposerLyricist` with their IPI,
 * then the track's and the release's contributors).
 */
function contributors(parties: PartyBook, track: ErnTrack, defaults: ResourceDefaults): XmlNode[] {
  const roles = new Map<string, string[]>();
  const add = (name: string | null, role: string | null) => {
    if (!name || !role) return;
    const list = roles.get(name) ?? [];
    if (!list.includes(role)) list.push(role);
    roles.set(name, list);
  };
  for (const writer of asRecords(track.payload.writers)) {
    const name = text(writer.name);
    add(name, 'ComposerLyricist');
    if (name) parties.addIpi(name, writer.ipi);
  }
  for (const credit of [...asRecords(track.payload.contributors), ...asRecords(defaults.contributors)])
    add(text(credit.name), text(credit.role));
  return [...roles].map(([name, list], index) =>
    xml(
      'Contributor',
      { SequenceNumber: index + 1 },
      xml('ContributorPartyReference', null, parties.referenceOf(name)),
      ...list.map((role) => {
        const { value, userDefined } = contributorRole(role);
        const attributes = userDefined
          ? { Namespace: defaults.senderDpid, UserDefinedValue: userDefined }
          : null;
        return xml('Role', attributes, value);
      }),
    ),
  );
}

function asRecords(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((item): item is Record<string, unknown> => !!item && typeof item === 'object')
    : [];
}

export function soundRecording(
  parties: PartyBook,
  track: ErnTrack,
  isrc: string,
  index: number,
  defaults: ResourceDefaults,
): XmlNode {
  const meta = track.payload;
  const names = artistNamesOf(meta, defaults.artistNames);
  const language = languageCode(meta.language) ?? defaults.language;
  return xml(
    'SoundRecording',
    null,
    xml('ResourceReference', null, `A${index + 1}`),
    xml('Type', null, 'MusicalWorkSoundRecording'),
    xml(
      'SoundRecordingEdition',
      null,
      xml('ResourceId', null, xml('ISRC', null, isrc)),
      pline(year(meta.pline_year) ?? defaults.pline.year, text(meta.pline_owner) ?? defaults.pline.owner),
      audioDetails(track, `T${index + 1}`),
    ),
    ...displayTitles(track.title, text(track.titleVersion), localNames(meta.title_locals)),
    ...displayArtists(parties, names, meta.artist_locals),
    ...contributors(parties, track, defaults),
    xml('Duration', null, isoDuration(track.audio.durationSeconds)),
    xml('ParentalWarningType', null, track.explicit ? 'Explicit' : 'NotExplicit'),
    xmlText('LanguageOfPerformance', language),
  );
}

/** The front cover, a secondary resource: identified by a proprietary id, as DDEX's profiles ask. */
export function frontCoverImage(file: ErnImageFile, reference: string, upc: string, dpid: string): XmlNode {
  return xml(
    'Image',
    null,
    xml('ResourceReference', null, reference),
    xml('Type', null, 'FrontCoverImage'),
    xml('ResourceId', null, xml('ProprietaryId', { Namespace: dpid }, `${upc}_FrontCoverImage`)),
    xml(
      'TechnicalDetails',
      null,
      xml('TechnicalResourceDetailsReference', null, `T${reference.slice(1)}`),
      xml('ImageCodecType', null, 'PNG'),
      file.height ? xml('ImageHeight', { UnitOfMeasure: 'Pixel' }, file.height) : null,
      file.width ? xml('ImageWidth', { UnitOfMeasure: 'Pixel' }, file.width) : null,
      fileNode(file),
    ),
  );
}
