import type { Day } from './days.ts';
import type { CountryStreams, StreamSource } from './stream-reports.ts';

/** A country's streams over a window. */
export interface CountryTotal {
  /** ISO 3166-1 alpha-2 (`ZZ`: report lines without a territory). */
  country: string;
  /** The English name (`Intl.DisplayNames`), e.g. United Kingdom for GB. */
  name: string;
  total: number;
}

const NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const CODE = /^[A-Z]{2}$/;

export const countryName = (code: string): string => NAMES.of(code) ?? code;

/** Countries by streams, most first (ties by code), without those at zero; the first `limit`. */
export function countryTotals(byCountry: ReadonlyMap<string, number>, limit: number): CountryTotal[] {
  return [...byCountry]
    .filter(([, total]) => total !== 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, limit)
    .map(([country, total]) => ({ country, name: countryName(country), total }));
}

/**
 * A report's countries for one figure, refused when they cannot be stored as they are: a code that is
 * not two capital letters, a country twice, a count that is not a whole number ≥ 0, or a sum other
 * than the figure (the tables keep countries that add up to `stream_days`). Zero entries are dropped.
 */
export function checkedCountries(
  source: Pick<StreamSource, 'releaseId' | 'storeId'>,
  day: Day,
  streams: number,
  countries: readonly CountryStreams[],
): CountryStreams[] {
  const where = `release ${source.releaseId} at store ${source.storeId} on ${day}`;
  const seen = new Set<string>();
  let sum = 0;
  for (const { country, streams: count } of countries) {
    if (!CODE.test(country) || seen.has(country))
      throw new Error(`Stream report of ${where}: country ${JSON.stringify(country)} is not a new ISO code`);
    if (!Number.isSafeInteger(count) || count < 0)
      throw new Error(`Stream report of ${where}: ${country} has ${count} streams`);
    seen.add(country);
    sum += count;
  }
  if (sum !== streams)
    throw new Error(`Stream report of ${where}: countries sum to ${sum}, tracks to ${streams}`);
  return countries.filter((entry) => entry.streams > 0);
}
