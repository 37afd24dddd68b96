import type { DashboardReleasesQuery } from '../../generated/graphql.ts';
import { h } from '../../lib/dom.ts';
import { formatCount, timeElement } from '../../lib/format.ts';
import { draftChip, statusChip } from '../../lib/status-chip.ts';

export type ReleaseNode = DashboardReleasesQuery['releasesConnection']['edges'][number]['node'];

export const COLUMNS = ['Cover', 'Release', 'Status', 'Stores', 'Submitted'] as const;

/** A cell that names its column on narrow screens, where the table's rows become stacked cards. */
const cell = (column: (typeof COLUMNS)[number], ...content: (Node | string)[]) =>
  h('td', { 'data-label': column }, ...content);

const titleOf = (release: { title: string | null; status: string }) =>
  release.title?.trim() || (release.status === 'DRAFT' ? 'Untitled draft' : 'Untitled release');

/** The release's cover (64 px WebP, shown at 48) or, without one, a placeholder that says so. */
export function coverImage(release: ReleaseNode): HTMLElement {
  if (!release.coverThumbnail)
    return h('span', { class: 'cover cover-none', role: 'img', 'aria-label': 'No cover art' }, '♪');
  return h('img', {
    class: 'cover',
    src: release.coverThumbnail.url,
    alt: `Cover of ${titleOf(release)}`,
    width: 48,
    height: 48,
    loading: 'lazy',
    decoding: 'async',
  });
}

/** "2 live · 3 in delivery · 1 failed" (taken down when there are any); "No stores yet" for none. */
export function storeCountsText(counts: ReleaseNode['storeCounts']): string {
  if (counts.total === 0) return 'No stores yet';
  const parts = [
    `${formatCount(counts.live)} live`,
    `${formatCount(counts.inDelivery)} in delivery`,
    `${formatCount(counts.failed)} failed`,
  ];
  if (counts.takenDown > 0) parts.push(`${formatCount(counts.takenDown)} taken down`);
  return parts.join(' · ');
}

/** One release of the list: cover, title (the link to its page) and artist, status, stores, date. */
export function releaseRow(release: ReleaseNode): HTMLTableRowElement {
  const title = titleOf(release);
  return h(
    'tr',
    { 'data-release-id': release.id },
    cell('Cover', coverImage(release)),
    cell(
      'Release',
      h(
        'span',
        { class: 'release-name' },
        h('a', { href: `/dashboard/releases/${release.id}` }, title),
        h('span', { class: 'muted' }, release.primaryArtistName ?? ''),
      ),
    ),
    cell(
      'Status',
      release.status === 'DRAFT' ? draftChip() : statusChip(release.aggregateStatus ?? 'QUEUED'),
    ),
    cell('Stores', storeCountsText(release.storeCounts)),
    cell(
      'Submitted',
      release.submittedAt
        ? timeElement(release.submittedAt, false)
        : h('span', { class: 'muted' }, 'Not submitted'),
    ),
  );
}
