import type { AggregateStatus } from '../generated/graphql.ts';
import { h } from './dom.ts';

/**
 * Where a release stands across its stores (the API's `AggregateStatus`), as a chip: a word first,
 * then a shape and a colour, so the colour never carries the meaning alone. A value the schema adds
 * fails the typecheck here until it has its word.
 */
const CHIPS: Record<AggregateStatus, { label: string; shape: string }> = {
  QUEUED: { label: 'Queued', shape: '○' },
  PENDING: { label: 'In review', shape: '◔' },
  DELIVERED: { label: 'Delivered', shape: '◑' },
  DISTRIBUTED: { label: 'Live', shape: '●' },
  TAKEN_DOWN: { label: 'Taken down', shape: '✕' },
};

/** A chip for an AggregateStatus value; a value this build does not know yet shows as it is. */
export function statusChip(status: AggregateStatus | string): HTMLSpanElement {
  const known = (CHIPS as Record<string, { label: string; shape: string } | undefined>)[status];
  const modifier = known ? status.toLowerCase().replace(/_/g, '-') : 'unknown';
  return h(
    'span',
    { class: `chip chip-${modifier}`, 'data-status': status },
    h('span', { class: 'chip-shape', 'aria-hidden': 'true' }, known?.shape ?? '?'),
    known?.label ?? status,
  );
}

/** A draft has no AggregateStatus yet: its chip says Draft, in words as the others do. */
export const draftChip = (): HTMLSpanElement =>
  h(
    'span',
    { class: 'chip chip-draft', 'data-status': 'DRAFT' },
    h('span', { class: 'chip-shape', 'aria-hidden': 'true' }, '◌'),
    'Draft',
  );
