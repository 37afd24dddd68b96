/**
 * What the Streams page shows, as its URL says it (`?release=<id>&from=YYYY-MM-DD&to=YYYY-MM-DD`), so a
 * reload or a shared link shows the same figures. Days are UTC calendar days, as the analytics API
 * takes and answers them.
 */
export interface StreamsQuery {
  /** One release's id; null for the whole account. */
  release: string | null;
  /** The window's ends; null for one end lets the API choose the other (30 days from or to it). */
  from: string | null;
  to: string | null;
}

/**
 * The preset windows, each ending yesterday: the last day the stores have reported whole (today's
 * figures are not in yet, and a window ending today would end every line on a drop to zero).
 */
export const PRESETS = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last year' },
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A release id in a URL that cannot be one: the page says "not found", as the shell does for a path. */
export const isReleaseId = (value: string) => UUID.test(value);

/** The window shown when the URL names none. */
export const DEFAULT_DAYS = 30;

/** A window as asked: without either end, the last 30 days. */
export const windowOf = (from: string | null, to: string | null) =>
  from || to ? { from, to } : presetWindow(DEFAULT_DAYS);

/** The URL's query; without `from` and `to`, the last 30 days (the URL stays as it is). */
export function queryOfUrl(search: string): StreamsQuery {
  const params = new URLSearchParams(search);
  const value = (name: string) => params.get(name)?.trim() || null;
  return { release: value('release'), ...windowOf(value('from'), value('to')) };
}

/** This page's URL for a query (its path, and the query's parameters that are set). */
export function urlOf(query: StreamsQuery): string {
  const params = new URLSearchParams();
  if (query.release) params.set('release', query.release);
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  const search = params.toString();
  return `${location.pathname}${search ? `?${search}` : ''}`;
}

/** Today's UTC day. */
const todayUtc = () => new Date().toISOString().slice(0, 10);

/** A UTC day `days` after (or before) another. */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The window of `days` days ending yesterday (UTC). */
export function presetWindow(days: number): { from: string; to: string } {
  const yesterday = addDays(todayUtc(), -1);
  return { from: addDays(yesterday, -(days - 1)), to: yesterday };
}

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** A UTC day as the reader writes dates ("Feb 3, 2026"): the day itself, whatever the reader's zone. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dayFormat.format(date);
}

/** A UTC day as a `<time>` element. */
export function dayElement(day: string): HTMLTimeElement {
  const element = document.createElement('time');
  element.dateTime = day;
  element.textContent = formatDay(day);
  return element;
}

/** A UTC day as the seconds since the epoch of its midnight: the chart's x values. */
export const secondsOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
