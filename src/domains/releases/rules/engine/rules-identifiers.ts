import {
  hasValidCheckDigit,
  ISRC_PATTERN,
  isrcRepair,
  judgeArtistLink,
  type LinkStore,
  normaliseIsrc,
} from './identifiers.ts';
import { isOmitted, type Obj, type Report, show, typeName } from './issues.ts';
import { items, objectItems, type Scope } from './scope.ts';

/** A track's ISRC in normalised form when it is valid. */
export interface ValidIsrc {
  isrc: string;
  path: string;
  index: number;
}

/** Checks ISRC syntax and in-release uniqueness; returns the valid ones for the catalog lookup. */
export function checkIsrcs(scope: Scope, report: Report): ValidIsrc[] {
  const valid: ValidIsrc[] = [];
  for (const { track, path, index } of scope.trackViews) {
    const value = track.isrc;
    const isrcPath = `${path}.isrc`;
    if (isOmitted(value)) continue;
    if (typeof value !== 'string') {
      report(
        'isrc.format',
        isrcPath,
        `isrc must be a string such as "USAB12400001", not ${typeName(value)}.`,
      );
      continue;
    }
    const isrc = normaliseIsrc(value);
    if (!ISRC_PATTERN.test(isrc)) {
      report(
        'isrc.format',
        isrcPath,
        `${show(value)} is not a valid ISRC: 2 letters, 3 letters or digits, then 7 digits (e.g. USAB12400001).`,
        isrcRepair(value),
      );
      continue;
    }
    const first = valid.find((other) => other.isrc === isrc);
    if (first) {
      report(
        'isrc.unique-in-release',
        isrcPath,
        `ISRC ${isrc} is already used by tracks[${first.index}]; each recording has its own ISRC.`,
      );
      continue;
    }
    valid.push({ isrc, path: isrcPath, index });
  }
  return valid;
}

/** Checks the UPC/EAN syntax and check digit; returns it when valid, for the catalog lookup. */
export function checkUpc(scope: Scope, report: Report): string | undefined {
  const value = scope.release.upc;
  if (isOmitted(value)) return undefined;
  if (typeof value !== 'string') {
    report(
      'upc.format',
      'release.upc',
      `upc must be a string of 12 or 13 digits (a number loses leading zeros), not ${typeName(value)}.`,
    );
    return undefined;
  }
  const upc = value.trim();
  if (!/^(?:\d{12}|\d{13})$/.test(upc)) {
    const digits = upc.replace(/[\s-]/g, '');
    const repaired = /^(?:\d{12}|\d{13})$/.test(digits) && hasValidCheckDigit(digits) ? digits : undefined;
    report(
      'upc.format',
      'release.upc',
      `${show(value)} is not a UPC (12 digits) or EAN (13 digits) with nothing else.`,
      repaired,
    );
    return undefined;
  }
  if (!hasValidCheckDigit(upc)) {
    report('upc.check-digit', 'release.upc', `${upc} has a wrong GS1 check digit (its last digit).`);
    return undefined;
  }
  return upc;
}

interface LinkField {
  path: string;
  value: unknown;
  store: LinkStore;
}

const PROFILE_FIELDS: readonly (readonly [string, LinkStore])[] = [
  ['dspone_artist_url', 'dspone'],
  ['dsptwo_artist_url', 'dsptwo'],
  ['dspthree_artist_url', 'other'],
  ['dspfour_artist_url', 'other'],
];

function linkFields(scope: Scope): LinkField[] {
  const { release } = scope;
  const fields: LinkField[] = [
    { path: 'release.dspone_artist_url', value: release.dspone_artist_url, store: 'dspone' },
    { path: 'release.dsptwo_artist_url', value: release.dsptwo_artist_url, store: 'dsptwo' },
  ];
  for (const [key, store] of [
    ['dspone_artist_urls', 'dspone'],
    ['dsptwo_artist_urls', 'dsptwo'],
  ] as const) {
    for (const item of items(release[key], `release.${key}`)) {
      fields.push({ path: item.path, value: item.value, store });
    }
  }
  const artists = (owner: Obj, base: string) => {
    for (const entry of objectItems(owner.primary_artists, `${base}.primary_artists`)) {
      for (const [key, store] of PROFILE_FIELDS) {
        fields.push({ path: `${entry.path}.${key}`, value: entry.value[key], store });
      }
    }
  };
  artists(release, 'release');
  for (const { track, path } of scope.trackViews) artists(track, path);
  return fields;
}

export function checkLinks(scope: Scope, report: Report): void {
  for (const field of linkFields(scope)) {
    if (isOmitted(field.value)) continue;
    if (typeof field.value !== 'string') {
      report(
        'link.artist-profile-only',
        field.path,
        `An artist link must be a string (or null), not ${typeName(field.value)}.`,
      );
      continue;
    }
    const verdict = judgeArtistLink(field.value, field.store);
    if (!verdict.ok) report(verdict.rule, field.path, verdict.message, verdict.suggestion);
  }
}
