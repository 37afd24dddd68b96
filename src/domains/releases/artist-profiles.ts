import { primaryArtistsOf } from './release-artists.ts';
import type { ReleaseInput } from './rules/engine/types.ts';

export interface ArtistProfile {
  name: string;
  isPrimary: boolean;
  dsptwoArtistId: string | null;
  dsptwoArtistUrl: string | null;
  dsponeArtistId: string | null;
  dsponeArtistUri: string | null;
  dsponeArtistUrl: string | null;
}

/** dspone links may be a profile URL, a bare id, or a `dspone:artist:<id>` URI. */
function dsponeId(link: string | null): string | null {
  if (!link) return null;
  const uri = /^[a-z0-9]+:artist:([A-Za-z0-9]+)$/i.exec(link);
  if (uri?.[1]) return uri[1];
  if (/^[A-Za-z0-9]{10,40}$/.test(link)) return link;
  try {
    return new URL(link).pathname.split('/').filter(Boolean).at(-1) ?? null;
  } catch {
    return null;
  }
}

/** dsptwo profile URLs end in the numeric artist id: `https://<host>/<storefront>/artist/<slug>/<id>`. */
function dsptwoId(link: string | null): string | null {
  if (!link) return null;
  return /\/(\d+)\/?(?:\?.*)?$/.exec(link)?.[1] ?? (/^\d+$/.test(link) ? link : null);
}

/**
 * The `artistProfiles` of events and release reads: the main primary artist first (always present,
 * `isPrimary: true`), then co-primary artists that carry an identifier; nulls mean no profile linked.
 */
export function artistProfilesOf(release: ReleaseInput): ArtistProfile[] {
  return primaryArtistsOf(release)
    .map((artist) => {
      const dsponeArtistId = dsponeId(artist.dsponeArtistUrl);
      return {
        name: artist.name,
        isPrimary: artist.isPrimary,
        dsptwoArtistId: dsptwoId(artist.dsptwoArtistUrl),
        dsptwoArtistUrl: artist.dsptwoArtistUrl?.startsWith('http') ? artist.dsptwoArtistUrl : null,
        dsponeArtistId,
        dsponeArtistUri: dsponeArtistId ? `dspone:artist:${dsponeArtistId}` : null,
        dsponeArtistUrl: artist.dsponeArtistUrl?.startsWith('http') ? artist.dsponeArtistUrl : null,
      };
    })
    .filter(
      (profile) => profile.isPrimary || profile.dsponeArtistId !== null || profile.dsptwoArtistId !== null,
    );
}
