import { isSent, type Obj, type Report, text, typeName } from './issues.ts';
import { metadataLanguage, objectItems, primaryArtistNames, type Scope } from './scope.ts';
import {
  englishTitleCase,
  fold,
  hasCasedLetters,
  isAllCaps,
  isAllLowercase,
  joinArtists,
  qualifierSegments,
  suggestedCase,
  tidy,
} from './text.ts';

interface TitleField {
  path: string;
  value: string;
  kind: 'title' | 'version';
  owner: 'release' | 'track';
  /** Primary artist names of the release and, for a track field, of the track. */
  artists: string[];
  /** The language the title is written in: a track's own language, else the release metadata language. */
  language: string | undefined;
}

const FEAT_CORRECT = /\(feat\. [^()]+\)/g;
const FEAT_MARKER = /(^|[\s([{\-–—])(featuring|feat\.|feat|ft\.|ft|w\/)(?=\s|$)/gi;
const FEAT_SEGMENT = /^(?:feat\b|ft\b|featuring\b|with\b|w\/)/i;
const REMIX = /\b(?:re-?mix(?:ed)?|rmx)\b/i;
const EXPLICIT_BRACKET = /[([]\s*(?:explicit|clean|dirty)(?:\s+(?:version|edit|mix))?\s*[)\]]/gi;
const EXPLICIT_DASH = /\s[-–—]\s*(?:explicit|clean|dirty)(?:\s+(?:version|edit))?\s*$/i;
const EXPLICIT_WHOLE = /^[([]?\s*(?:explicit|clean|dirty)(?:\s+(?:version|edit|mix))?\s*[)\]]?$/i;
const STANDARD_LABEL = /^(?:original\s+mix|album\s+version|original\s+version|lp\s+version)$/i;
const MARKETING =
  /\b(?:official\s+(?:music\s+|lyric\s+)?(?:video|audio|version)|official|exclusive|limited\s+edition|free\s+download|out\s+now|pre-?order|full\s+album|hd|hq|4k)\b/gi;
const EMOJI = /(?![©®™])\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u20E3\uFE0F\u200D]/gu;
const WEB_ADDRESS =
  /(?:\b(?:https?:\/\/|www\.)\S+|\b[\w-]+\.(?:com|net|org|io|co|fm|me|ly|tv|app|music)\b(?:\/\S*)?)/gi;
const HANDLE = /(^|\s)@[\w.]+/g;
const HASHTAG = /(^|\s)#\p{L}[\p{L}\p{N}_]*/gu;
const WEB_HANDLE_OR_HASHTAG = new RegExp(`${WEB_ADDRESS.source}|${HANDLE.source}|${HASHTAG.source}`, 'giu');
const SELF_CENSORED = /\p{L}\*+\p{L}|\p{L}\*{2,}|\*{2,}\p{L}/u;
const VERSION_TEXT =
  /^(?:live\b.*|.*\b(?:acoustic|unplugged|instrumental|a\s?cappella|acapella|stripped|sped\s+up|slowed|reverb|nightcore|karaoke|demo|remaster(?:ed)?|reprise|mono|stereo|extended|edit|version|mix|dub|cover|deluxe|edition|bonus\s+track)\b.*)$/i;
const PLACEHOLDER =
  /^(?:(?:track|song|audio)\s*(?:#|no\.?)?\s*\d+|untitled(?:\s+(?:track|song))?(?:\s*(?:#|no\.?)?\s*\d+)?|new\s+(?:song|track)(?:\s*\d+)?|tbd|tba|placeholder|no\s+title)$/i;
const VOL_PART =
  /(\s*[,:\-–—([]?\s*)\b(Vol(?:ume)?|VOL(?:UME)?|vol(?:ume)?|Pt|PT|pt|Part|PART|part)\b(\.?)\s*(\d+|[IVX]+)\b(\s*[)\]])?/g;

function titleFields(scope: Scope, report: Report): TitleField[] {
  const fields: TitleField[] = [];
  const releaseArtists = primaryArtistNames(scope.release);
  const add = (
    owner: Obj,
    path: string,
    kind: TitleField['kind'],
    which: TitleField['owner'],
    artists: string[],
    language: string | undefined,
  ) => {
    const key = kind === 'title' ? 'title' : 'title_version';
    const value = owner[key];
    if (kind === 'version' && isSent(value) && typeof value !== 'string') {
      const rule = which === 'release' ? 'required.release-title' : 'required.track-title';
      report(rule, `${path}.${key}`, `title_version must be a string when sent, not ${typeName(value)}.`);
    }
    const trimmed = text(value);
    if (trimmed !== undefined) {
      fields.push({ path: `${path}.${key}`, value: trimmed, kind, owner: which, artists, language });
    }
  };
  const releaseLanguage = metadataLanguage(scope.release);
  add(scope.release, 'release', 'title', 'release', releaseArtists, releaseLanguage);
  add(scope.release, 'release', 'version', 'release', releaseArtists, releaseLanguage);
  for (const { track, path } of scope.trackViews) {
    const artists = [...new Set([...primaryArtistNames(track), ...releaseArtists])];
    const language = text(track.language)?.toLowerCase() ?? releaseLanguage;
    add(track, path, 'title', 'track', artists, language);
    add(track, path, 'version', 'track', artists, language);
  }
  return fields;
}

function checkCasing(field: TitleField, report: Report): void {
  const { value, path, language } = field;
  if (!hasCasedLetters(value)) return;
  if (isAllCaps(value)) {
    report('title.not-all-caps', path, `"${value}" is written in all caps.`, suggestedCase(value, language));
  } else if (isAllLowercase(value)) {
    report(
      'title.not-all-lowercase',
      path,
      `"${value}" is written in all lowercase.`,
      suggestedCase(value, language),
    );
  } else if (language === 'en') {
    const cased = englishTitleCase(value, false);
    if (cased !== value) {
      report(
        'title.english-title-case',
        path,
        `"${value}" is not in English title case (lowercase articles, short conjunctions and prepositions).`,
        cased,
      );
    }
  }
}

function featSuggestion(value: string, markerStart: number, marker: string): string | undefined {
  let base = value.slice(0, markerStart);
  const inBracket = /[([{]\s*$/.test(base);
  base = base.replace(/[\s([{\-–—]+$/, '');
  let tail = value.slice(markerStart + marker.length).trim();
  let rest = '';
  const cut = inBracket ? tail.search(/[)\]}]/) : tail.search(/[([]/);
  if (cut >= 0) {
    rest = inBracket ? tail.slice(cut + 1) : tail.slice(cut);
    tail = tail.slice(0, cut);
  }
  const names = tail
    .split(/\s*,\s*|\s+&\s+|\s+\+\s+/)
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (base === '' || names.length === 0) return undefined;
  return tidy(`${base} (feat. ${joinArtists(names)}) ${rest}`);
}

function checkFeat(field: TitleField, report: Report): void {
  const masked = field.value.replace(FEAT_CORRECT, (match) => ' '.repeat(match.length));
  for (const match of masked.matchAll(FEAT_MARKER)) {
    const lead = match[1] ?? '';
    const marker = match[2] ?? '';
    const start = (match.index ?? 0) + lead.length;
    if (start === 0) continue;
    // "Feat" capitalised mid-sentence is the English noun; the bare marker counts after a bracket or dash.
    if (marker === 'Feat' || marker === 'FEAT') {
      if (!/[([{\-–—]/.test(lead)) continue;
    }
    report(
      'title.feat-format',
      field.path,
      `Featured artists are written "(feat. X)", not "${marker}".`,
      featSuggestion(field.value, start, marker),
    );
    return;
  }
}

function checkArtistInTitle(field: TitleField, report: Report): void {
  const match = /^(.+?)\s+[-–—]\s+(.+)$/.exec(field.value);
  if (!match?.[1] || !match[2]) return;
  const prefix = fold(match[1]);
  if (field.artists.some((artist) => fold(artist) === prefix)) {
    report(
      'title.no-artist-name',
      field.path,
      `The title repeats the artist ("${match[1].trim()} - ..."); the artist is credited separately.`,
      match[2].trim(),
    );
  }
}

function checkExplicitClean(field: TitleField, report: Report): void {
  const { value, path } = field;
  if (field.kind === 'version' && EXPLICIT_WHOLE.test(value)) {
    report(
      'title.no-explicit-clean',
      path,
      `"${value}" is not a version; mark the track with explicit_flag instead and omit title_version.`,
    );
    return;
  }
  const found = value.match(EXPLICIT_BRACKET)?.[0] ?? EXPLICIT_DASH.exec(value)?.[0];
  if (found) {
    const cleaned = tidy(value.replace(EXPLICIT_BRACKET, ' ').replace(EXPLICIT_DASH, ''));
    report(
      'title.no-explicit-clean',
      path,
      `"${found.trim()}" does not belong in a title; set explicit_flag instead.`,
      cleaned || undefined,
    );
  }
}

function checkStandardLabel(field: TitleField, report: Report): void {
  const { value, path } = field;
  if (field.kind === 'version' && STANDARD_LABEL.test(value.replace(/^[([]|[)\]]$/g, '').trim())) {
    report(
      'title.no-standard-version-label',
      path,
      `"${value}" marks the standard version; omit title_version for it.`,
    );
    return;
  }
  const segment = qualifierSegments(value).find((s) => STANDARD_LABEL.test(s.inner));
  if (segment) {
    const cleaned = tidy(value.replace(segment.whole, ' '));
    report(
      'title.no-standard-version-label',
      path,
      `"${segment.inner}" marks the standard version; leave it out.`,
      cleaned || undefined,
    );
  }
}

function checkRemovable(
  field: TitleField,
  report: Report,
  rule: string,
  pattern: RegExp,
  describe: (found: string) => string,
): void {
  const found = field.value.match(pattern);
  if (!found || found.length === 0) return;
  const cleaned = tidy(field.value.replace(pattern, (match) => (/^\s/.test(match) ? ' ' : '')));
  const shown = [...new Set(found.map((f) => f.trim()))].join('", "');
  report(rule, field.path, describe(shown), cleaned && cleaned !== field.value ? cleaned : undefined);
}

function checkVersionInTitle(field: TitleField, report: Report): void {
  if (field.kind !== 'title') return;
  for (const segment of qualifierSegments(field.value)) {
    const inner = segment.inner;
    if (inner === '' || FEAT_SEGMENT.test(inner) || REMIX.test(inner) || STANDARD_LABEL.test(inner)) continue;
    if (EXPLICIT_WHOLE.test(inner)) continue;
    if (!VERSION_TEXT.test(inner)) continue;
    const cleaned = tidy(field.value.replace(segment.whole, ' '));
    report(
      'title.version-in-title-version',
      field.path,
      `Version text "${inner}" belongs in title_version, not in the title.`,
      cleaned || undefined,
    );
    return;
  }
}

function checkRemix(field: TitleField, report: Report): void {
  if (field.owner !== 'track') return;
  if (field.kind === 'title') {
    const segment = qualifierSegments(field.value).find((s) => REMIX.test(s.inner));
    if (!segment) return;
    const version = segment.inner.replace(/\b(?:re-?mix(?:ed)?|rmx)\b/gi, 'Remix');
    const cleaned = tidy(field.value.replace(segment.whole, ' '));
    report(
      'title-version.remix',
      field.path,
      `Remix text "${segment.inner}" belongs in title_version (as "${version}"), not in the title.`,
      cleaned || undefined,
    );
  } else if (/\b(?:rmx|re-mix)\b/i.test(field.value)) {
    report(
      'title-version.remix',
      field.path,
      `Write "Remix" in full in title_version, not "${field.value}".`,
      field.value.replace(/\b(?:rmx|re-mix)\b/gi, 'Remix'),
    );
  }
}

function checkBareCover(field: TitleField, report: Report): void {
  if (field.kind !== 'version') return;
  if (/^[([]?\s*cover\s*[)\]]?$/i.test(field.value)) {
    report(
      'title-version.no-bare-cover',
      field.path,
      'title_version is never the bare word "Cover": mark the track with track_type "cover" and omit ' +
        'title_version, or name the kind of cover (e.g. "Acoustic Cover").',
    );
  }
}

function checkPlaceholder(field: TitleField, report: Report): void {
  if (field.kind !== 'title') return;
  if (PLACEHOLDER.test(field.value)) {
    report(
      'title.no-placeholder',
      field.path,
      `"${field.value}" is a placeholder title; use the real title.`,
    );
  }
}

function checkVolPart(field: TitleField, report: Report): void {
  let wrong = false;
  const replace = (...args: unknown[]): string => {
    const [whole, lead, word, , num, close, offset] = args as [
      string,
      string,
      string,
      string,
      string,
      unknown,
      number,
    ];
    const opened = /[([]/.test(lead);
    if (offset === 0 || opened !== (close !== undefined)) return whole;
    const desired = `, ${/^v/i.test(word) ? 'Vol.' : 'Pt.'} ${num}`;
    if (whole === desired) return whole;
    wrong = true;
    return desired;
  };
  const suggestion = field.value.replace(VOL_PART, replace);
  if (!wrong) return;
  report(
    'title.vol-part-format',
    field.path,
    'Volumes and parts are written ", Vol. N" and ", Pt. N".',
    tidy(suggestion),
  );
}

function checkUniqueTracks(scope: Scope, report: Report): void {
  const seen = new Map<string, number>();
  for (const { track, path, index } of scope.trackViews) {
    const title = text(track.title);
    if (title === undefined) continue;
    const key = `${fold(title)}\u0000${fold(text(track.title_version) ?? '')}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, index);
      continue;
    }
    report(
      'title.unique-tracks',
      `${path}.title`,
      `Track title "${title}" repeats tracks[${first}] with the same title_version; give the versions ` +
        'different title_version values.',
    );
  }
}

function checkSingle(scope: Scope, report: Report): void {
  if (!Array.isArray(scope.tracks) || scope.tracks.length !== 1) return;
  const only = scope.trackViews[0];
  if (!only) return;
  const releaseTitle = text(scope.release.title);
  const trackTitle = text(only.track.title);
  if (releaseTitle !== undefined && trackTitle !== undefined && releaseTitle !== trackTitle) {
    report(
      'title.single-matches-track',
      'release.title',
      `A single has the title of its track: "${releaseTitle}" differs from the track title "${trackTitle}".`,
      trackTitle,
    );
  }
  const releaseVersion = text(scope.release.title_version) ?? '';
  const trackVersion = text(only.track.title_version) ?? '';
  if (releaseVersion !== trackVersion) {
    report(
      'title.single-matches-track',
      'release.title_version',
      trackVersion === ''
        ? `A single has the title_version of its track, which has none; omit "${releaseVersion}".`
        : `A single has the title_version of its track ("${trackVersion}").`,
      trackVersion === '' ? undefined : trackVersion,
    );
  }
}

function checkRemixerCredit(scope: Scope, report: Report): void {
  const credited = (owner: Obj) =>
    objectItems(owner.contributors, '').some((c) => /remix/i.test(text(c.value.role) ?? ''));
  const releaseCredits = credited(scope.release);
  for (const { track, path } of scope.trackViews) {
    const version = text(track.title_version);
    if (!version || !/\bremix\b/i.test(version)) continue;
    if (releaseCredits || credited(track)) continue;
    report(
      'title-version.remixer-credit',
      `${path}.contributors`,
      `The track is a remix ("${version}") but lists no contributor with role "Remixer".`,
    );
  }
}

export function checkTitles(scope: Scope, report: Report): void {
  for (const field of titleFields(scope, report)) {
    checkCasing(field, report);
    checkFeat(field, report);
    checkArtistInTitle(field, report);
    checkExplicitClean(field, report);
    checkStandardLabel(field, report);
    checkRemovable(
      field,
      report,
      'title.no-marketing-words',
      MARKETING,
      (found) => `Marketing words ("${found}") are not part of a title.`,
    );
    checkRemovable(field, report, 'title.no-emoji', EMOJI, () => 'Titles contain no emoji or pictographs.');
    checkRemovable(
      field,
      report,
      'title.no-url-handle-hashtag',
      WEB_HANDLE_OR_HASHTAG,
      (found) => `Titles contain no web addresses, @handles or #hashtags ("${found}").`,
    );
    if (SELF_CENSORED.test(field.value)) {
      report(
        'title.no-self-censoring',
        field.path,
        'Spell words out instead of masking letters with *; mark the track with explicit_flag instead.',
      );
    }
    checkVersionInTitle(field, report);
    checkRemix(field, report);
    checkBareCover(field, report);
    checkPlaceholder(field, report);
    checkVolPart(field, report);
  }
  checkUniqueTracks(scope, report);
  checkSingle(scope, report);
  checkRemixerCredit(scope, report);
}
