import { findStore, resolveStoreId } from '../../../catalog/index.ts';
import { isSent, type Report, show, text, typeName } from './issues.ts';
import { items, type Scope } from './scope.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
export const LEAD_TIME_DAYS = 7;

/** Milliseconds of a real calendar date written YYYY-MM-DD (UTC midnight), or undefined. */
export function parseReleaseDate(value: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined;
  }
  return time;
}

/** A YYYY-MM-DD spelling of a date sent in another unambiguous form (ISO timestamp, YYYY/MM/DD). */
function dateRepair(value: string): string | undefined {
  const match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T\s].*)?$/.exec(value.trim());
  if (!match) return undefined;
  const repaired = `${match[1]}-${match[2]?.padStart(2, '0')}-${match[3]?.padStart(2, '0')}`;
  return parseReleaseDate(repaired) === undefined ? undefined : repaired;
}

export function checkReleaseDate(scope: Scope, now: Date, report: Report): void {
  const value = scope.release.release_date;
  const path = 'release.release_date';
  if (!isSent(value)) return;
  if (typeof value !== 'string') {
    report('release-date.format', path, `release_date must be a YYYY-MM-DD string, not ${typeName(value)}.`);
    return;
  }
  const trimmed = text(value);
  if (trimmed === undefined) return;
  const time = parseReleaseDate(trimmed);
  if (time === undefined) {
    report(
      'release-date.format',
      path,
      `${show(value)} is not a valid calendar date written YYYY-MM-DD.`,
      dateRepair(trimmed),
    );
    return;
  }
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Math.round((time - today) / DAY_MS);
  if (days < LEAD_TIME_DAYS) {
    const when =
      days < 0
        ? `${-days} day${days === -1 ? '' : 's'} ago`
        : days === 0
          ? 'today'
          : `in ${days} day${days === 1 ? '' : 's'}`;
    report(
      'release-date.lead-time',
      path,
      `The release date ${trimmed} is ${when}; stores need at least ${LEAD_TIME_DAYS} days of editorial lead time.`,
      new Date(today + LEAD_TIME_DAYS * DAY_MS).toISOString().slice(0, 10),
    );
  }
}

export function checkStores(scope: Scope, report: Report): void {
  const path = 'release.distribution_store_ids';
  if (!scope.storeSelectionSent) {
    report(
      'stores.explicit-selection',
      path,
      'distribution_store_ids is omitted, so the release goes to all supported stores (legacy default); ' +
        'send null for all stores or a list to make the choice explicit.',
    );
  }
  const value = scope.release.distribution_store_ids;
  if (!isSent(value)) return;
  if (!Array.isArray(value)) {
    report(
      'stores.non-empty-selection',
      path,
      `distribution_store_ids must be null (all supported stores) or an array of store ids, not ${typeName(value)}.`,
    );
    return;
  }
  if (value.length === 0) {
    report(
      'stores.non-empty-selection',
      path,
      'distribution_store_ids must not be an empty array: send null for all supported stores, or at least ' +
        'one store.',
    );
    return;
  }
  for (const item of items(value, path)) {
    const id =
      typeof item.value === 'number' || typeof item.value === 'string' ? resolveStoreId(item.value) : null;
    if (id === null) {
      report(
        'stores.known-store',
        item.path,
        `${show(item.value)} is not a store id or alias from GET /distribution-stores.`,
      );
      continue;
    }
    const store = findStore(id);
    if (store?.requiresPartnerApproval) {
      report(
        'stores.partner-approval',
        item.path,
        `${store.name} (${id}) requires partner approval; it is skipped with a reason until the account is ` +
          'approved for it.',
      );
    }
  }
}
