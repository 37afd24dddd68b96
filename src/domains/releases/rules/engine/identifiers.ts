/** ISRC, UPC and artist-link syntax, shared by the rules and by prepareForSubmission. */

export const ISRC_PATTERN = /^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/;

/** Uppercased, hyphens and spaces removed, an `ISRC` prefix stripped (unless it is the ISRC itself). */
export function normaliseIsrc(value: string): string {
  const compact = value.toUpperCase().replace(/[\s-]/g, '');
  if (ISRC_PATTERN.test(compact)) return compact;
  const prefixed = /^ISRC:?(.*)$/.exec(compact);
  return prefixed ? (prefixed[1] ?? '') : compact;
}

/** A valid ISRC that a little more cleaning would give (other punctuation, letter O for zero), if any. */
export function isrcRepair(value: string): string | undefined {
  const cleaned = normaliseIsrc(value).replace(/[^A-Z0-9]/g, '');
  if (ISRC_PATTERN.test(cleaned)) return cleaned;
  const zeros = `${cleaned.slice(0, 5)}${cleaned.slice(5).replace(/O/g, '0')}`;
  return ISRC_PATTERN.test(zeros) ? zeros : undefined;
}

/** GS1 mod-10: weights 3 and 1 alternate from the digit next to the check digit. */
export function gs1CheckDigit(digitsWithoutCheck: string): number {
  let sum = 0;
  const digits = [...digitsWithoutCheck].reverse();
  digits.forEach((digit, index) => {
    sum += Number(digit) * (index % 2 === 0 ? 3 : 1);
  });
  return (10 - (sum % 10)) % 10;
}

export function hasValidCheckDigit(upc: string): boolean {
  return gs1CheckDigit(upc.slice(0, -1)) === Number(upc.slice(-1));
}

export type LinkStore = 'dspone' | 'dsptwo' | 'other';

export type LinkVerdict =
  | { ok: true }
  | {
      ok: false;
      rule: 'link.artist-profile-only' | 'link.dsptwo-profile-form';
      message: string;
      suggestion?: string;
    };

const NON_ARTIST_SEGMENTS = ['album', 'track', 'song', 'playlist'];
const DSPTWO_PROFILE = /^https:\/\/[^/\s?#]+\/[a-z]{2}\/artist\/[^/\s?#]+\/(?:id)?\d+\/?(?:[?#]\S*)?$/i;

function nonArtistKind(link: string): string | undefined {
  const uri = /^[a-z0-9-]+:(album|track|song|playlist):/i.exec(link);
  if (uri) return uri[1]?.toLowerCase();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(link)) return undefined;
  let segments: string[];
  try {
    segments = new URL(link).pathname.toLowerCase().split('/');
  } catch {
    return undefined;
  }
  return NON_ARTIST_SEGMENTS.find((kind) => segments.includes(kind));
}

/** Judges one artist link of a store; `link` is a non-blank string. */
export function judgeArtistLink(link: string, store: LinkStore): LinkVerdict {
  const value = link.trim();
  const kind = nonArtistKind(value);
  if (kind !== undefined) {
    return {
      ok: false,
      rule: 'link.artist-profile-only',
      message: `This is ${kind === 'album' ? 'an' : 'a'} ${kind} link, not an artist profile link; link the artist's profile.`,
    };
  }
  if (store === 'dspone') {
    const isUrl = /^https?:\/\//i.test(value);
    let profileUrl = false;
    if (isUrl) {
      try {
        profileUrl = /\/artist\/[A-Za-z0-9]+\/?$/.test(new URL(value).pathname);
      } catch {
        profileUrl = false;
      }
    }
    if (profileUrl || /^[A-Za-z0-9]+$/.test(value) || /^[a-z0-9-]+:artist:[A-Za-z0-9]+$/i.test(value)) {
      return { ok: true };
    }
    return {
      ok: false,
      rule: 'link.artist-profile-only',
      message: `${JSON.stringify(value)} is not an artist profile URL, a bare artist id or a <dspone>:artist:<id> URI.`,
    };
  }
  if (store === 'dsptwo') {
    if (DSPTWO_PROFILE.test(value)) return { ok: true };
    const https = value.replace(/^http:\/\//i, 'https://');
    return {
      ok: false,
      rule: 'link.dsptwo-profile-form',
      message: `${JSON.stringify(value)} is not a dsptwo profile URL of the form https://<host>/<storefront>/artist/<slug>/<id>.`,
      ...(https !== value && DSPTWO_PROFILE.test(https) ? { suggestion: https } : {}),
    };
  }
  return { ok: true };
}
