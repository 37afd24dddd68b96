import type { ReleaseInput } from './rules/engine/types.ts';

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/**
 * The release's primary artists in credit order with their store links: `primary_artists` when sent
 * (else the one `primary_artist_name`); the positional link arrays fill gaps, and the single link
 * fields belong to the main artist.
 */
export function primaryArtistsOf(release: ReleaseInput) {
  const listed =
    Array.isArray(release.primary_artists) && release.primary_artists.length > 0
      ? release.primary_artists
      : [{ name: release.primary_artist_name }];
  return listed.map((artist, index) => ({
    name: text(artist?.name) ?? (index === 0 ? (text(release.primary_artist_name) ?? '') : ''),
    isPrimary: index === 0,
    dsponeArtistUrl:
      text(artist?.dspone_artist_url) ??
      text(release.dspone_artist_urls?.[index]) ??
      (index === 0 ? text(release.dspone_artist_url) : null),
    dsptwoArtistUrl:
      text(artist?.dsptwo_artist_url) ??
      text(release.dsptwo_artist_urls?.[index]) ??
      (index === 0 ? text(release.dsptwo_artist_url) : null),
    dspthreeArtistUrl: text(artist?.dspthree_artist_url),
    dspfourArtistUrl: text(artist?.dspfour_artist_url),
  }));
}
