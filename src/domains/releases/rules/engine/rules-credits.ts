import { isObj, isSent, type Obj, type Report, show, text, typeName } from './issues.ts';
import { objectItems, primaryArtistNames, type Scope, type TrackView } from './scope.ts';
import { fold } from './text.ts';

/** The kinds of track the spec accepts (`remix` is not one: remixes say so in title_version). */
export const TRACK_TYPES = ['original', 'cover', 'public_domain'] as const;
const PUBLIC_DOMAIN_WRITER = /^(?:traditional|trad\.?|public\s+domain|pd|anonymous|anon\.?)$/i;
/** Scripts that write a full name without spaces. */
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const INITIAL = /^\p{L}\.?$/u;

function checkWriterName(name: string, path: string, report: Report): void {
  if (PUBLIC_DOMAIN_WRITER.test(name) || UNSPACED_SCRIPT.test(name)) return;
  const parts = name.split(/\s+/);
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  let problem: string | undefined;
  if (parts.length < 2) problem = 'a first and a last name';
  else if (INITIAL.test(first) || INITIAL.test(last) || /^(?:\p{L}\.){2,}$/u.test(first)) {
    problem = 'names spelled out, not initials';
  } else if (/\d/.test(name)) problem = 'a legal name without digits';
  if (problem) {
    report(
      'writers.full-legal-name',
      path,
      `Writer "${name}" needs a full legal name (${problem}); stage names and initials are not accepted.`,
    );
  }
}

function checkShares(view: TrackView, report: Report): void {
  const writers = objectItems(view.track.writers, `${view.path}.writers`);
  const shares: { path: string; share: number }[] = [];
  let invalid = false;
  for (const writer of writers) {
    const value = writer.value.share_percent;
    const path = `${writer.path}.share_percent`;
    if (!isSent(value)) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      report(
        'writers.share-range',
        path,
        `share_percent must be a number from 0 to 100, not ${show(value)}.`,
      );
      invalid = true;
    } else if (value < 0 || value > 100) {
      report('writers.share-range', path, `share_percent must be from 0 to 100, not ${value}.`);
      invalid = true;
    } else {
      shares.push({ path, share: value });
    }
  }
  const last = shares[shares.length - 1];
  if (invalid || !last) return;
  const total = shares.reduce((sum, entry) => sum + entry.share, 0);
  if (Math.abs(total - 100) <= 0.01) return;
  const fixed = Math.round((last.share + 100 - total) * 1000) / 1000;
  report(
    'writers.share-total',
    last.path,
    `Writer shares of the track add up to ${Math.round(total * 1000) / 1000}, not 100.`,
    fixed >= 0 && fixed <= 100 ? String(fixed) : undefined,
  );
}

function isEmptyValue(value: unknown): boolean {
  if (value === null || value === false || value === 0) return true;
  if (typeof value === 'string') return value.trim() === '' || /^(?:false|no|none|0)$/i.test(value.trim());
  if (Array.isArray(value)) return value.length === 0;
  if (isObj(value)) return Object.keys(value).length === 0;
  return false;
}

function checkAiDisclosure(view: TrackView, report: Report): void {
  for (const key of ['contains_ai', 'ai_generation_credits'] as const) {
    const value = view.track[key];
    if (value === undefined) continue;
    const path = `${view.path}.${key}`;
    if (isEmptyValue(value)) {
      report(
        'ai.disclosure-billing',
        path,
        `${key} is sent (${show(value)}): any value marks the track as AI and bills it at the AI rate. ` +
          'Omit it for a human track.',
      );
    } else if (key === 'contains_ai' && typeof value !== 'boolean') {
      report(
        'ai.disclosure-billing',
        path,
        `contains_ai should be a boolean, not ${typeName(value)}; the track is billed as AI because it is sent.`,
      );
    }
  }
}

function checkTrackType(view: TrackView, report: Report): string | undefined {
  const value = view.track.track_type;
  const path = `${view.path}.track_type`;
  if (!isSent(value)) return undefined;
  if (typeof value !== 'string') {
    report(
      'track-type.allowed-values',
      path,
      `track_type must be "original", "cover" or "public_domain", not ${typeName(value)}.`,
    );
    return undefined;
  }
  const canonical = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (canonical === 'remix') {
    report(
      'track-type.no-remix',
      path,
      'track_type is never "remix": keep "original" (or "cover") and put Remix in title_version.',
      'original',
    );
    return undefined;
  }
  if ((TRACK_TYPES as readonly string[]).includes(value)) return value;
  report(
    'track-type.allowed-values',
    path,
    `track_type must be "original", "cover" or "public_domain", not ${show(value)}.`,
    (TRACK_TYPES as readonly string[]).includes(canonical) ? canonical : undefined,
  );
  return undefined;
}

function writerNames(track: Obj): string[] {
  return objectItems(track.writers, '').flatMap((writer) => {
    const name = text(writer.value.name);
    return name === undefined ? [] : [name];
  });
}

function checkCoverCredits(
  view: TrackView,
  trackType: string | undefined,
  scope: Scope,
  report: Report,
): void {
  const names = writerNames(view.track);
  if (names.length === 0) return;
  if (trackType === 'cover') {
    const performers = new Set(
      [...primaryArtistNames(view.track), ...primaryArtistNames(scope.release)].map((name) => fold(name)),
    );
    if (names.every((name) => performers.has(fold(name)))) {
      report(
        'cover.credit-original-writers',
        `${view.path}.writers`,
        'A cover credits the writers of the original song, not only its performing artist.',
      );
    }
  }
  if (trackType !== 'public_domain' && names.some((name) => PUBLIC_DOMAIN_WRITER.test(name))) {
    report(
      'cover.public-domain-declared',
      `${view.path}.track_type`,
      'The track credits a Traditional or Public Domain writer; declare it with track_type "public_domain".',
      'public_domain',
    );
  }
}

function checkPreviewStart(view: TrackView, report: Report): void {
  const value = view.track.preview_start_seconds;
  if (!isSent(value)) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    report(
      'track.preview-start',
      `${view.path}.preview_start_seconds`,
      `preview_start_seconds must be a whole number of seconds >= 0, not ${show(value)}.`,
      typeof value === 'number' && Number.isFinite(value) && value >= 0
        ? String(Math.floor(value))
        : undefined,
    );
  }
}

/** Writers, AI disclosure, track type and cover-song rules; returns each track's valid track_type. */
export function checkCredits(scope: Scope, report: Report): Map<number, string | undefined> {
  const trackTypes = new Map<number, string | undefined>();
  for (const view of scope.trackViews) {
    for (const writer of objectItems(view.track.writers, `${view.path}.writers`)) {
      const name = text(writer.value.name);
      if (name !== undefined) checkWriterName(name, `${writer.path}.name`, report);
    }
    checkShares(view, report);
    checkAiDisclosure(view, report);
    const trackType = checkTrackType(view, report);
    trackTypes.set(view.index, trackType);
    checkCoverCredits(view, trackType, scope, report);
    checkPreviewStart(view, report);
  }
  return trackTypes;
}
