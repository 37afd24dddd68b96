import { invalidRequest } from '../../platform/errors.ts';
import { addDays, type Day, dayOf, daysBetween, isDay } from './days.ts';

/** The longest window: two years of days (a leap year's included). */
export const MAX_WINDOW_DAYS = 731;
export const DEFAULT_WINDOW_DAYS = 30;

export interface DateWindow {
  fromDate: Day;
  toDate: Day;
  /** Days in the window, both ends included. */
  days: number;
}

function badField(field: string, message: string) {
  return invalidRequest(`${field}: ${message}`, [{ path: field, message }], 'invalid_date_window');
}

/**
 * The window a request asks for. Omitted, it is the trailing 30 days ending today (UTC); one end given,
 * the window is the 30 days from or to it. Bad dates, a `toDate` before `fromDate` and windows over two years are
 * refused with 400 naming the field.
 */
export function resolveWindow(
  input: { fromDate?: string | null; toDate?: string | null },
  now: Date,
): DateWindow {
  for (const field of ['fromDate', 'toDate'] as const) {
    const value = input[field];
    if (value != null && !isDay(value))
      throw badField(field, `${value} is not a date of the form YYYY-MM-DD`);
  }
  const toDate =
    input.toDate ?? (input.fromDate ? addDays(input.fromDate, DEFAULT_WINDOW_DAYS - 1) : dayOf(now));
  const fromDate = input.fromDate ?? addDays(toDate, -(DEFAULT_WINDOW_DAYS - 1));
  const days = daysBetween(fromDate, toDate) + 1;
  if (days < 1) throw badField('toDate', `${toDate} is before fromDate ${fromDate}`);
  if (days > MAX_WINDOW_DAYS) {
    throw badField(
      'fromDate',
      `the window from ${fromDate} to ${toDate} is ${days} days; at most ${MAX_WINDOW_DAYS} (two years)`,
    );
  }
  return { fromDate, toDate, days };
}

/** The equal-length window just before `window`, for the period change. */
export function precedingWindow(window: DateWindow): DateWindow {
  return {
    fromDate: addDays(window.fromDate, -window.days),
    toDate: addDays(window.fromDate, -1),
    days: window.days,
  };
}
