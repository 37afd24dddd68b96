import type { ReleaseInput } from '../releases/index.ts';
import { primaryArtistsOf } from '../releases/index.ts';
import { type LocalName, localNames, type PartyBook } from './ddex-parties.ts';
import { joinNames } from './ddex-values.ts';
import { type XmlNode, xml } from './xml.ts';

/**
 * Titles as ERN 4.3 shows them: `DisplayTitleText` is the whole title in one string (title plus
 * version), `DisplayTitle` splits the version into a SubTitle; each localized title adds one of each,
 * labelled with its language (localized titles carry no version).
 */
export function displayTitles(title: string, version: string | null, locals: readonly LocalName[]) {
  const full = version ? `${title} (${version})` : title;
  return [
    xml('DisplayTitleText', { IsDefault: 'true' }, full),
    ...locals.map((local) => xml('DisplayTitleText', { LanguageAndScriptCode: local.code }, local.name)),
    xml(
      'DisplayTitle',
      { IsDefault: 'true' },
      xml('TitleText', null, title),
      version ? xml('SubTitle', { SubTitleType: 'Version' }, version) : null,
    ),
    ...locals.map((local) =>
      xml('DisplayTitle', { LanguageAndScriptCode: local.code }, xml('TitleText', null, local.name)),
    ),
  ];
}

/** The primary artists of a track (its own when it names any, else the release's), main artist first. */
export function artistNamesOf(payload: Record<string, unknown>, fallback: readonly string[]): string[] {
  const own = payload as ReleaseInput;
  const named =
    (Array.isArray(own.primary_artists) && own.primary_artists.length > 0) ||
    (typeof own.primary_artist_name === 'string' && own.primary_artist_name.trim() !== '');
  if (!named) return [...fallback];
  const names = primaryArtistsOf(own)
    .map((artist) => artist.name)
    .filter(Boolean);
  return names.length > 0 ? names : [...fallback];
}

/**
 * `DisplayArtistName` (the credit as one string, and per language where the main artist has a
 * localized name) and one sequenced `DisplayArtist` per artist: the first is the `MainArtist`, the
 * others co-primary `Artist`s (DDEX allows only one main artist per credit).
 */
export function displayArtists(
  parties: PartyBook,
  names: readonly string[],
  artistLocals: unknown,
): XmlNode[] {
  const locals = localNames(artistLocals);
  const [main, ...others] = names;
  if (main) parties.addLocals(main, locals);
  return [
    xml('DisplayArtistName', { IsDefault: 'true' }, joinNames(names)),
    ...locals.map((local) =>
      xml('DisplayArtistName', { LanguageAndScriptCode: local.code }, joinNames([local.name, ...others])),
    ),
    ...names.map((name, index) =>
      xml(
        'DisplayArtist',
        { SequenceNumber: index + 1 },
        xml('ArtistPartyReference', null, parties.referenceOf(name)),
        xml('DisplayArtistRole', null, index === 0 ? 'MainArtist' : 'Artist'),
      ),
    ),
  ];
}
