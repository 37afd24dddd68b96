import { createHash } from 'node:crypto';
import { raw } from '@mikro-orm/core';
import { invalidRequest } from '../../platform/errors.ts';
import { ISRC_PATTERN, normaliseIsrc } from './rules/engine/identifiers.ts';

/** Characters of a search once trimmed. */
export const SEARCH_MIN_LENGTH = 1;
export const SEARCH_MAX_LENGTH = 200;

const UPC = /^\d{12,13}$/;

/** What one search box asks: a title part, and the UPCs and ISRC the same text can be. */
export interface ReleaseSearch {
  /** The trimmed text, as the title is matched against. */
  text: string;
  /** The UPC forms of a 12- or 13-digit text (a UPC-A and its EAN-13 with a leading zero). */
  upcs: string[];
  /** The normalised ISRC of a text that is one (case and hyphens aside), else null. */
  isrc: string | null;
}

/** Reads the search box (trimmed; 1..200 characters, else 400 `invalid_argument` naming `field`). */
export function releaseSearch(raw: string, field = 'search'): ReleaseSearch {
  const text = raw.trim();
  if (text.length < SEARCH_MIN_LENGTH || text.length > SEARCH_MAX_LENGTH) {
    throw invalidRequest(
      `${field} must be ${SEARCH_MIN_LENGTH} to ${SEARCH_MAX_LENGTH} characters once trimmed.`,
      [{ path: field, message: text.length === 0 ? 'empty' : 'too long' }],
      'invalid_argument',
    );
  }
  return { text, upcs: upcForms(text), isrc: isrcOf(text) };
}

function upcForms(text: string): string[] {
  if (!UPC.test(text)) return [];
  if (text.length === 12) return [text, `0${text}`];
  return text.startsWith('0') ? [text, text.slice(1)] : [text];
}

function isrcOf(text: string): string | null {
  const isrc = normaliseIsrc(text);
  return ISRC_PATTERN.test(isrc) ? isrc : null;
}

/**
 * The cursor scope of a search: the same for texts that find the same releases (the title match is
 * case-insensitive, the identifiers have no case), different otherwise. Opaque: a hash of the text.
 */
export function searchScope(search: ReleaseSearch): string {
  return createHash('sha256').update(search.text.toLowerCase()).digest('base64url').slice(0, 16);
}

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The filter of a search on the caller's releases, one SQL condition: a title containing the text
 * (ILIKE), or a UPC among `upcs` (the `releases_upc_lookup` index: the column of a submitted release,
 * the payload's of a draft), or a track with the ISRC (a submitted release's `release_tracks`, by its
 * index; a draft's tracks in its payload, read with the case and hyphens the draft was given). The
 * identifier arms run once, as an array of ids, and only when the text can be one.
 */
export function searchFilter(accountId: string, search: ReleaseSearch): Record<string, unknown> {
  const params: unknown[] = [`%${likeLiteral(search.text)}%`];
  const ids: string[] = [];
  if (search.upcs.length > 0) {
    ids.push(
      `select u.id from releases u where u.account_id = ? and coalesce(u.upc, u.payload #>> '{release,upc}') in (${search.upcs.map(() => '?').join(', ')})`,
    );
    params.push(accountId, ...search.upcs);
  }
  if (search.isrc !== null) {
    ids.push(
      'select t.release_id from release_tracks t where t.isrc = ?',
      `select d.id from releases d where d.account_id = ? and d.status = 'draft' and exists (
        select 1 from jsonb_array_elements(case jsonb_typeof(d.payload -> 'tracks') when 'array' then d.payload -> 'tracks' else '[]'::jsonb end) track
        where upper(translate(track ->> 'isrc', '- ', '')) = ?)`,
    );
    params.push(search.isrc, accountId, search.isrc);
  }
  const byId = ids.length > 0 ? ` or %alias%.id = any(array(${ids.join(' union ')}))` : '';
  const condition = raw(
    (alias: string) => `(${alias}.title ilike ?${byId.replaceAll('%alias%', alias)})`,
    params,
  );
  return { [condition]: [] };
}
