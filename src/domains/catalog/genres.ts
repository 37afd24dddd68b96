/**
 * The genres a release or track may name, as the stores' genre lists have them. Matching ignores case;
 * anything else is reported (a warning, with the closest genre) so the store does not re-file it.
 */
export const GENRES = [
  'Afrobeats',
  'Alternative',
  'Ambient',
  'Blues',
  "Children's Music",
  'Christian & Gospel',
  'Classical',
  'Comedy',
  'Country',
  'Dance',
  'Electronic',
  'Folk',
  'Hip-Hop/Rap',
  'Holiday',
  'Indie',
  'Instrumental',
  'J-Pop',
  'Jazz',
  'K-Pop',
  'Latin',
  'Metal',
  'New Age',
  'Pop',
  'Punk',
  'R&B/Soul',
  'Reggae',
  'Rock',
  'Singer/Songwriter',
  'Soundtrack',
  'Spoken Word',
  'World',
] as const;

const BY_LOWER = new Map<string, string>(GENRES.map((genre) => [genre.toLowerCase(), genre]));

/** The catalogue's spelling of a genre, whatever its case; null when it is not in the catalogue. */
export function catalogueGenre(name: string): string | null {
  return BY_LOWER.get(name.trim().toLowerCase()) ?? null;
}
