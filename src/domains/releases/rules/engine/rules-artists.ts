import { isSent, type Obj, type Report, text, typeName } from './issues.ts';
import { objectItems, type Scope } from './scope.ts';
import { fold, tidy } from './text.ts';

interface NameField {
  path: string;
  value: string;
  level: 'release' | 'track';
  /** The main artist slot of its owner (primary_artist_name or primary_artists[0].name). */
  main: boolean;
}

/** Names that are generic on their own (the rule `artist.generic-name`, `rules/rule-catalog.ts`). */
const GENERIC_NAMES: ReadonlySet<string> = new Set([
  'white noise',
  'sleep music',
  'relaxing music',
  'yoga',
  'workout',
  'meditation',
  'baby',
  'christmas',
  'top hits',
  'chorus',
  'orchestra',
  'singer',
  'unknown',
  'unknown artist',
  'artist',
  'music',
  'various',
  'anonymous',
  'n/a',
]);

/** Words a search-bait name is made only of (two or more of them), e.g. "Deep Sleep Music". */
const GENERIC_WORDS: ReadonlySet<string> = new Set(
  (
    'white pink brown noise sleep sleeping deep music relaxing relaxation relax calm yoga workout fitness gym ' +
    'meditation meditative baby babies lullaby lullabies kids christmas xmas top hits hit chorus orchestra ' +
    'singer unknown artist study focus spa sounds nature rain ambient healing piano instrumental lofi chill ' +
    'beats background'
  ).split(' '),
);

const ROLE_WORDS =
  'producer|prod\\.?|vocals?|vocalist|singer|guitar|guitarist|piano|pianist|drums|drummer|bass|bassist|' +
  'violin|violinist|cello|cellist|sax|saxophone|saxophonist|trumpet|keys|keyboards|composer|songwriter|' +
  'writer|lyricist|arranger|conductor|engineer|remixer|dj|mc|rapper|band|soprano|tenor|baritone|official';
const ROLE_SEGMENT = new RegExp(
  `^(?:.*\\b(?:${ROLE_WORDS})\\b.*|.*\\b(?:1[89]|20)\\d{2}\\b.*|born\\b.*)$`,
  'i',
);
const ROLE_SUFFIX = new RegExp(`\\s*(?:[-–—,|/]\\s*)(?:${ROLE_WORDS})\\s*$`, 'i');
const WEB_ADDRESS = /\bhttps?:\/\/|\bwww\.|\.(?:com|net|org|io|fm|tv|me|co)\b|(^|\s)@\w/i;
const DATE = /\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b/;
const VA_ABBREVIATION = /^(?:va|v\/a|v\.\s?a\.?|v\.a)$/i;
const SEVERAL_ARTISTS = /\s&\s|\s[xX×]\s+\S|,\s*\S|\s(?:feat\.?|ft\.?|featuring|vs\.?)\s/i;

function nameFields(scope: Scope): NameField[] {
  const fields: NameField[] = [];
  const collect = (owner: Obj, base: string, level: NameField['level']) => {
    const main = text(owner.primary_artist_name);
    if (main !== undefined) {
      fields.push({ path: `${base}.primary_artist_name`, value: main, level, main: true });
    }
    for (const entry of objectItems(owner.primary_artists, `${base}.primary_artists`)) {
      const name = text(entry.value.name);
      if (name !== undefined)
        fields.push({ path: `${entry.path}.name`, value: name, level, main: entry.index === 0 });
    }
  };
  collect(scope.release, 'release', 'release');
  for (const { track, path } of scope.trackViews) collect(track, path, 'track');
  return fields;
}

function isGeneric(name: string): boolean {
  const folded = fold(name).replace(/^the\s+/, '');
  if (GENERIC_NAMES.has(folded)) return true;
  const words = folded.split(/[\s&+-]+/).filter((word) => word !== '');
  return words.length >= 2 && words.every((word) => GENERIC_WORDS.has(word));
}

function isVariousArtists(name: string): boolean {
  return fold(name) === 'various artists';
}

function extraInfo(name: string): { found: string; cleaned: string } | undefined {
  for (const match of name.matchAll(/\(([^()]*)\)|\[([^[\]]*)\]/g)) {
    const inner = (match[1] ?? match[2] ?? '').trim();
    if (ROLE_SEGMENT.test(inner)) return { found: match[0], cleaned: tidy(name.replace(match[0], ' ')) };
  }
  const suffix = ROLE_SUFFIX.exec(name);
  if (suffix) return { found: suffix[0].trim(), cleaned: tidy(name.slice(0, suffix.index)) };
  const web = WEB_ADDRESS.exec(name);
  if (web) return { found: web[0].trim(), cleaned: '' };
  if (/\bofficial\b/i.test(name)) {
    return { found: 'Official', cleaned: tidy(name.replace(/\bofficial\b/gi, ' ')) };
  }
  const date = DATE.exec(name);
  if (date) return { found: date[0], cleaned: tidy(name.replace(date[0], ' ')) };
  return undefined;
}

/** Distinct primary artists of a compilation: every named primary artist except Various Artists. */
function compilationArtistCount(scope: Scope): number {
  const names = new Set<string>();
  const add = (name: string | undefined) => {
    if (name !== undefined && !isVariousArtists(name) && !VA_ABBREVIATION.test(name)) names.add(fold(name));
  };
  for (const owner of [scope.release, ...scope.trackViews.map((view) => view.track)]) {
    add(text(owner.primary_artist_name));
    for (const entry of objectItems(owner.primary_artists, '')) add(text(entry.value.name));
  }
  return names.size;
}

function checkNames(scope: Scope, report: Report): void {
  const compilationArtists = compilationArtistCount(scope);
  for (const field of nameFields(scope)) {
    const { path, value } = field;
    if (isGeneric(value)) {
      report('artist.generic-name', path, `"${value}" is a generic or search-bait name, not an artist name.`);
    }
    if (VA_ABBREVIATION.test(value)) {
      report(
        'artist.no-va-abbreviation',
        path,
        `Write "Various Artists" in full, not "${value}".`,
        'Various Artists',
      );
    }
    const extra = extraInfo(value);
    if (isVariousArtists(value)) {
      if (field.level === 'track') {
        report(
          'artist.various-artists-release-only',
          path,
          'Various Artists is never a track artist; name the artist.',
        );
      } else if (!field.main) {
        report(
          'artist.various-artists-release-only',
          path,
          'Various Artists is only the main release artist of a compilation, never a co-primary artist.',
        );
      } else if (compilationArtists < 4) {
        report(
          'artist.various-artists-release-only',
          path,
          `Various Artists needs a compilation of four or more primary artists; this release names ` +
            `${compilationArtists} besides Various Artists.`,
        );
      }
    } else if (!extra && SEVERAL_ARTISTS.test(value)) {
      report(
        'artist.one-per-field',
        path,
        `"${value}" looks like several artists in one field; list co-primary artists as separate ` +
          'primary_artists entries (ignore this for an official duo or group name).',
      );
    }
    if (extra) {
      report(
        'artist.no-extra-info',
        path,
        `Artist names carry no roles, instruments, dates, "Official" or URLs ("${extra.found}").`,
        extra.cleaned === '' ? undefined : extra.cleaned,
      );
    }
  }
}

function checkPrimaryNameMatches(owner: Obj, base: string, report: Report): void {
  const main = text(owner.primary_artist_name);
  const first = objectItems(owner.primary_artists, `${base}.primary_artists`)[0];
  const firstName = text(first?.value.name);
  if (main === undefined || firstName === undefined || first?.index !== 0) return;
  if (main !== firstName) {
    report(
      'artist.primary-name-matches-list',
      `${base}.primary_artist_name`,
      `primary_artist_name "${main}" must equal primary_artists[0].name "${firstName}".`,
      firstName,
    );
  }
}

function checkLinkArrays(scope: Scope, report: Report): void {
  const { release } = scope;
  const artists = Array.isArray(release.primary_artists) ? release.primary_artists.length : 0;
  const artistCount = Math.max(artists, text(release.primary_artist_name) === undefined ? 0 : 1);
  for (const field of ['dspone_artist_urls', 'dsptwo_artist_urls'] as const) {
    const value = release[field];
    const path = `release.${field}`;
    if (!isSent(value)) continue;
    if (!Array.isArray(value)) {
      report(
        'artist.link-arrays-length',
        path,
        `${field} must be an array with one link (or null) per primary artist, not ${typeName(value)}.`,
      );
    } else if (value.length > artistCount) {
      report(
        'artist.link-arrays-length',
        path,
        `${field} has ${value.length} entries but the release has ${artistCount} primary ` +
          `artist${artistCount === 1 ? '' : 's'}; it is never longer than primary_artists.`,
      );
    }
  }
}

export function checkArtists(scope: Scope, report: Report): void {
  checkNames(scope, report);
  checkPrimaryNameMatches(scope.release, 'release', report);
  for (const { track, path } of scope.trackViews) checkPrimaryNameMatches(track, path, report);
  checkLinkArrays(scope, report);
}
