/** Dates and numbers as the reader's browser writes them (its language), in the reader's time zone. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });

/** An ISO date-time (a `DateTime` of the API) as a `<time>` with its machine-readable value. */
export function timeElement(iso: string, withTime = true): HTMLTimeElement {
  const element = document.createElement('time');
  element.dateTime = iso;
  element.textContent = formatDate(iso, withTime);
  return element;
}

/** An ISO date-time as text: "Nov 27, 2026, 4:20 AM" (or the date alone); the input itself if unreadable. */
export function formatDate(iso: string, withTime = true): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return (withTime ? dateTime : dateOnly).format(date);
}

/** A count with the reader's digit grouping. */
export const formatCount = (value: number) => integer.format(value);

/** A signed count: "+25", "−3" (a true minus sign), "0". */
export const formatSigned = (value: number) =>
  value > 0 ? `+${formatCount(value)}` : value < 0 ? `\u2212${formatCount(-value)}` : '0';

/** US dollars with cents. */
export const formatUsd = (value: number) => usd.format(value);
