/** Text helpers for title and name rules. */

/** Articles, short conjunctions and prepositions of up to four letters, lowercase inside an English title. */
const MINOR_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'and',
  'but',
  'or',
  'nor',
  'as',
  'at',
  'by',
  'for',
  'from',
  'in',
  'into',
  'of',
  'on',
  'onto',
  'over',
  'per',
  'to',
  'via',
  'with',
  'vs',
  'v',
  'n',
]);

const ROMAN = /^(?=[IVX]{2,})X{0,3}(?:IX|IV|V?I{0,3})$/;

/** Whether `value` is ASCII only: its letters are then A–Z and a–z, and no other character is cased. */
function isAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0x7f) return false;
  return true;
}

export function hasCasedLetters(value: string): boolean {
  if (isAscii(value)) return /[A-Za-z]/.test(value);
  return /\p{Lu}|\p{Ll}/u.test(value);
}

function countCased(value: string): { upper: number; lower: number } {
  if (isAscii(value)) {
    let upper = 0;
    let lower = 0;
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code >= 0x41 && code <= 0x5a) upper++;
      else if (code >= 0x61 && code <= 0x7a) lower++;
    }
    return { upper, lower };
  }
  return {
    upper: (value.match(/\p{Lu}/gu) ?? []).length,
    lower: (value.match(/\p{Ll}/gu) ?? []).length,
  };
}

/** Written entirely in capitals (at least four letters, so short acronyms pass). */
export function isAllCaps(value: string): boolean {
  const { upper, lower } = countCased(value);
  return lower === 0 && upper >= 4;
}

/** Written entirely in lowercase (at least two letters). */
export function isAllLowercase(value: string): boolean {
  const { upper, lower } = countCased(value);
  return upper === 0 && lower >= 2;
}

/** Upper-cases the first character when it is a letter (`2nd` and `'til` stay as they are). */
function capitalise(word: string): string {
  const first = word.charCodeAt(0);
  if (first >= 0x61 && first <= 0x7a) return String.fromCharCode(first - 0x20) + word.slice(1);
  if (first <= 0x7f || Number.isNaN(first)) return word;
  return word.replace(/^\p{L}/u, (letter) => letter.toUpperCase());
}

/** Words other rules own: featuring markers, @handles, #hashtags and web addresses keep their casing. */
function isMarkerOrHandle(lead: string, core: string, trail: string): boolean {
  return (
    (lead !== '' && /[#@]/.test(lead)) ||
    (core.length <= 9 && /^(?:ft|feat|featuring|w)$/i.test(core)) ||
    ((core.includes('.') || core.includes('/') || core.includes(':')) && /[./:]\p{L}/u.test(core)) ||
    trail.startsWith('/')
  );
}

interface Word {
  lead: string;
  core: string;
  trail: string;
}

/** A letter or a digit of ASCII: a word that starts and ends with one has no lead or trail. */
function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function splitWord(token: string): Word {
  if (isAsciiAlphanumeric(token.charCodeAt(0)) && isAsciiAlphanumeric(token.charCodeAt(token.length - 1)))
    return { lead: '', core: token, trail: '' };
  const match = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/u.exec(token);
  return { lead: match?.[1] ?? '', core: match?.[2] ?? token, trail: match?.[3] ?? '' };
}

/**
 * English title case. With `fromScratch` the text is lowercased first (a suggestion for an all-caps or
 * all-lowercase title); otherwise only lowercase words are capitalised and capitalised minor words lowered,
 * leaving acronyms and stylised words (DNA, iPhone) alone. `(feat. ...)` groups keep their artist names.
 */
export function englishTitleCase(value: string, fromScratch: boolean): string {
  const tokens = value.split(/(\s+)/);
  // The split alternates words (even indexes, '' at an edge) and the whitespace between them.
  const wordIndexes: number[] = [];
  for (let index = 0; index < tokens.length; index += 2) if (tokens[index] !== '') wordIndexes.push(index);
  let inFeat = false;
  wordIndexes.forEach((tokenIndex, n) => {
    const original = tokens[tokenIndex] ?? '';
    const { lead, core: originalCore, trail } = splitWord(original);
    const previous = n > 0 ? (tokens[wordIndexes[n - 1] ?? 0] ?? '') : '';
    const startsSegment =
      n === 0 || (lead !== '' && /[([{"“]/.test(lead)) || /[:([{]$|^[-–—/]$/.test(previous);
    const endsSegment = n === wordIndexes.length - 1 || (trail !== '' && /[:)\]}]/.test(trail));
    const core = fromScratch && !ROMAN.test(originalCore) ? originalCore.toLowerCase() : originalCore;
    let result = core;
    if (core.toLowerCase() === 'feat' && trail.startsWith('.')) {
      result = fromScratch ? 'feat' : core;
      inFeat = !/[)\]]/.test(trail);
    } else if (inFeat) {
      result = fromScratch ? capitalise(core) : core;
      if (/[)\]]/.test(trail)) inFeat = false;
    } else if (isMarkerOrHandle(lead, core, trail)) {
      result = core;
    } else if (hasCasedLetters(core)) {
      const lower = core.toLowerCase();
      const minor = MINOR_WORDS.has(lower) && !startsSegment && !endsSegment;
      if (minor && (core === lower || core === capitalise(lower))) result = lower;
      else if (!minor && core === lower) result = capitalise(core);
    }
    tokens[tokenIndex] = `${lead}${result}${trail}`;
  });
  return tokens.join('');
}

/** Sentence case for languages other than English: first letter up, the rest lowercased. */
export function sentenceCase(value: string): string {
  return capitalise(value.toLowerCase());
}

/** The suggested casing of a title in the release's metadata language (English title case by default). */
export function suggestedCase(value: string, language: string | undefined): string {
  return language === undefined || language === 'en' ? englishTitleCase(value, true) : sentenceCase(value);
}

/** Collapses whitespace, drops empty brackets and dangling separators left after removing text. */
export function tidy(value: string): string {
  let result = value;
  for (let i = 0; i < 3; i++) {
    result = result
      .replace(/\(\s*\)|\[\s*\]|\{\s*\}/g, '')
      .replace(/\s+/g, ' ')
      .replace(/\s+([)\],.!?])/g, '$1')
      .replace(/([([])\s+/g, '$1')
      .replace(/^[\s\-–—:,|/]+|[\s\-–—:,|/]+$/g, '')
      .trim();
  }
  return result;
}

/** Lowercased, whitespace-collapsed form for comparing names and titles. */
export function fold(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Bracketed segments `(..)` / `[..]` and a trailing ` - suffix`, with where they sit in the text. */
export function qualifierSegments(value: string): { whole: string; inner: string }[] {
  const segments: { whole: string; inner: string }[] = [];
  for (const match of value.matchAll(/\(([^()]*)\)|\[([^[\]]*)\]/g)) {
    segments.push({ whole: match[0], inner: (match[1] ?? match[2] ?? '').trim() });
  }
  const dash = /\s[-–—]\s+([^-–—()[\]]+)$/.exec(value);
  if (dash?.[1]) segments.push({ whole: dash[0], inner: dash[1].trim() });
  return segments;
}

/** Joins artist names as `A`, `A & B`, `A, B & C`. */
export function joinArtists(names: string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} & ${names[names.length - 1]}`;
}
