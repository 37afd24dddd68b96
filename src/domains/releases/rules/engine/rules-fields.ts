import { closestName } from '../../../../platform/suggest.ts';
import { catalogueGenre, GENRES } from '../../../catalog/index.ts';
import { releaseFieldNames, trackFieldNames } from '../../release-schema.ts';
import { type Obj, type Report, text } from './issues.ts';
import type { Scope } from './scope.ts';

/** Fields a client may send back from a read (GET /releases/{id}) without being told they are unknown. */
const READ_BACK = ['artist_profiles'];

/** A release may bring its own UPC (checked by the identifier rules) beyond the schema's optional fields. */
const RELEASE_FIELDS = [...releaseFieldNames(), ...READ_BACK, 'upc'];
const TRACK_FIELDS = [...trackFieldNames(), ...READ_BACK];

/** `explicitFlag`, `Explicit-Flag` and `explicit_flag` compare equal. */
const fieldKey = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

function reportUnknown(report: Report, object: Obj, path: string, known: readonly string[]): void {
  for (const field of Object.keys(object)) {
    if (known.includes(field)) continue;
    const closest = closestName(field, known, fieldKey);
    report(
      'fields.unknown',
      `${path}.${field}`,
      `Unknown field "${field.slice(0, 80)}" is ignored.${closest ? ` Did you mean "${closest}"?` : ''}`,
      closest ?? undefined,
    );
  }
}

export function checkUnknownFields(scope: Scope, report: Report): void {
  reportUnknown(report, scope.release, 'release', RELEASE_FIELDS);
  for (const view of scope.trackViews) reportUnknown(report, view.track, view.path, TRACK_FIELDS);
}

/** Genre comparison ignores case and punctuation: `hiphop` is near `Hip-Hop/Rap`. */
const genreKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

function checkGenre(report: Report, value: unknown, path: string): void {
  const genre = text(value);
  if (genre === undefined || catalogueGenre(genre)) return;
  const closest = closestName(genre, GENRES, genreKey);
  report(
    'genre.not-in-catalogue',
    path,
    `"${genre.slice(0, 80)}" is not a genre of the catalogue.${closest ? ` Did you mean "${closest}"?` : ''} Genres: ${GENRES.join(', ')}.`,
    closest ?? undefined,
  );
}

export function checkGenres(scope: Scope, report: Report): void {
  checkGenre(report, scope.release.genre, 'release.genre');
  for (const view of scope.trackViews) checkGenre(report, view.track.genre, `${view.path}.genre`);
}
