import { addDays, type Day, daysBetween, monthOf } from './days.ts';

/** One piece of a window: whole months from a monthly rollup or a day range from a daily one, added or taken away. */
export type WindowPart =
  | { table: 'months'; from: Day; toExclusive: Day; sign: 1 }
  | { table: 'days'; from: Day; to: Day; sign: 1 | -1 };

const nextMonth = (day: Day) => {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
};
const lastDayOf = (month: Day) => addDays(nextMonth(month), -1);
const length = (from: Day, to: Day) => daysBetween(from, to) + 1;

/**
 * A window as few rollup rows as possible: the calendar months it covers whole from the monthly
 * rollup, and each month it covers in part either as its days inside the window or, when fewer, as the
 * whole month less its days outside the window. A two-year window reads about 25 monthly rows and at
 * most about 30 daily rows per key instead of 730 daily ones.
 */
export function windowParts(from: Day, to: Day): WindowPart[] {
  const parts: WindowPart[] = [];
  const firstWhole = monthOf(from) === from ? from : nextMonth(from);
  const endWhole = monthOf(addDays(to, 1));
  if (firstWhole < endWhole)
    parts.push({ table: 'months', from: firstWhole, toExclusive: endWhole, sign: 1 });
  const partial = new Set<Day>();
  if (monthOf(from) !== from || monthOf(from) >= endWhole) partial.add(monthOf(from));
  if (lastDayOf(monthOf(to)) !== to) partial.add(monthOf(to));
  for (const month of partial) {
    const start = from > month ? from : month;
    const last = lastDayOf(month);
    const end = to < last ? to : last;
    const outside = [
      start > month ? { from: month, to: addDays(start, -1) } : null,
      end < last ? { from: addDays(end, 1), to: last } : null,
    ].filter((piece) => piece !== null);
    const outsideDays = outside.reduce((sum, piece) => sum + length(piece.from, piece.to), 0);
    if (length(start, end) <= outsideDays) {
      parts.push({ table: 'days', from: start, to: end, sign: 1 });
    } else {
      parts.push({ table: 'months', from: month, toExclusive: nextMonth(month), sign: 1 });
      for (const piece of outside) parts.push({ table: 'days', ...piece, sign: -1 });
    }
  }
  return parts;
}

/** A pair of rollups keyed (owner, month|day, key): `<rollup>_months` and `<rollup>_days`. */
export interface RollupPair {
  months: string;
  days: string;
  /** Whose rows: an account's, or one release's. */
  owner: 'account_id' | 'release_id';
  key: string;
}

/**
 * SQL of a window's parts over a pair of rollups: rows of `key` and signed `streams`, to be summed per
 * key. Returns the text and its parameters, after `ownerId`.
 */
export function partsSql(
  parts: readonly WindowPart[],
  tables: RollupPair,
  ownerId: string,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const selects = parts.map((part) => {
    if (part.table === 'months') {
      params.push(ownerId, part.from, part.toExclusive);
      return `select ${tables.key} as key, streams from ${tables.months}
              where ${tables.owner} = ? and month >= ?::date and month < ?::date`;
    }
    params.push(ownerId, part.from, part.to);
    return `select ${tables.key} as key, ${part.sign === -1 ? '-' : ''}streams as streams from ${tables.days}
            where ${tables.owner} = ? and day between ?::date and ?::date`;
  });
  return {
    sql: selects.length > 0 ? selects.join('\nunion all\n') : 'select null as key, 0 as streams where false',
    params,
  };
}
