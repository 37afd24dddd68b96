import type { DashboardReleaseQuery } from '../../generated/graphql.ts';
import { type Child, h } from '../../lib/dom.ts';
import { formatDate } from '../../lib/format.ts';

type Release = DashboardReleaseQuery['release'];

export const titleOf = (release: Release) =>
  release.title?.trim() || (release.status === 'DRAFT' ? 'Untitled draft' : 'Untitled release');

const withVersion = (title: string, version: string | null | undefined) =>
  version ? `${title} (${version})` : title;

/** A calendar date (YYYY-MM-DD) as the reader writes dates, read as that day wherever the reader is. */
const calendarDate = (day: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(day) ? formatDate(`${day}T12:00:00`, false) : day;

const credit = (owner: string | null, year: string | null) =>
  owner ? (year ? `${year} ${owner}` : owner) : null;

function artistsOf(release: Release): string {
  const named = [...release.artists].sort((a, b) => a.position - b.position).map((a) => a.name);
  return named.length > 0 ? named.join(', ') : (release.primaryArtistName ?? '—');
}

/** The facts an artist looks for, in a description list; a fact the release lacks is left out. */
function facts(release: Release): HTMLDListElement {
  const meta = release.releaseMetadata;
  const genre = meta.genre ? (meta.subGenre ? `${meta.genre} / ${meta.subGenre}` : meta.genre) : null;
  const entries: [string, Child][] = [
    ['Artists', artistsOf(release)],
    ['UPC', release.upc ? h('code', {}, release.upc) : null],
    ['Release date', meta.releaseDate ? calendarDate(meta.releaseDate) : null],
    ['Label', meta.label],
    ['Genre', genre],
    ['Language', meta.audioLanguage],
    ['℗', credit(meta.plineOwner, meta.plineYear)],
    ['©', credit(meta.clineOwner, meta.clineYear)],
    ['Submitted', release.submittedAt ? formatDate(release.submittedAt) : 'Not submitted'],
  ];
  return h(
    'dl',
    { class: 'facts' },
    entries
      .filter(([, value]) => value !== null && value !== undefined && value !== '')
      .map(([name, value]) => h('div', {}, h('dt', {}, name), h('dd', {}, value))),
  );
}

/** The cover (320 px, shown at 160) and the release's facts side by side; stacked on narrow screens. */
export function summarySection(release: Release, chip: HTMLElement): HTMLElement {
  const title = titleOf(release);
  const cover = release.coverThumbnail
    ? h('img', {
        class: 'cover-large',
        src: release.coverThumbnail.url,
        alt: `Cover of ${title}`,
        width: 160,
        height: 160,
      })
    : h('span', { class: 'cover-large cover-none', role: 'img', 'aria-label': 'No cover art' }, '♪');
  return h(
    'section',
    { class: 'release-summary', 'aria-labelledby': 'summary-heading' },
    cover,
    h(
      'div',
      {},
      h('h2', { id: 'summary-heading', class: 'visually-hidden' }, 'About this release'),
      h('p', { class: 'release-status' }, 'Status: ', chip),
      facts(release),
      h(
        'p',
        {},
        h(
          'a',
          { href: `/dashboard/streams?${new URLSearchParams({ release: release.id })}` },
          'Streams of this release',
        ),
      ),
    ),
  );
}

/** The tracks in order: number, title, ISRC, explicit. A draft's are its saved ones. */
export function tracksSection(release: Release): HTMLElement {
  const tracks =
    release.tracks.length > 0
      ? [...release.tracks]
          .sort((a, b) => a.position - b.position)
          .map((t) => ({
            number: t.position + 1,
            title: withVersion(t.title, t.titleVersion),
            isrc: t.isrc,
            explicit: t.explicit,
          }))
      : release.trackMetadata.map((t, index) => ({
          number: index + 1,
          title: withVersion(t.title ?? 'Untitled track', t.titleVersion),
          isrc: t.isrc,
          explicit: t.explicitFlag === true,
        }));
  const cell = (label: string, ...content: Child[]) => h('td', { 'data-label': label }, ...content);
  return h(
    'section',
    { 'aria-labelledby': 'tracks-heading' },
    h('h2', { id: 'tracks-heading' }, 'Tracks'),
    tracks.length === 0
      ? h('p', { class: 'muted' }, 'No tracks yet.')
      : h(
          'table',
          { class: 'cards', id: 'tracks' },
          h('caption', { class: 'visually-hidden' }, 'Tracks in order'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['#', 'Title', 'ISRC', 'Explicit'].map((name) => h('th', { scope: 'col' }, name)),
            ),
          ),
          h(
            'tbody',
            {},
            tracks.map((track) =>
              h(
                'tr',
                {},
                cell('#', String(track.number)),
                cell('Title', track.title),
                cell(
                  'ISRC',
                  track.isrc
                    ? h('code', {}, track.isrc)
                    : h('span', { class: 'muted' }, 'Assigned at submission'),
                ),
                cell('Explicit', track.explicit ? 'Yes' : 'No'),
              ),
            ),
          ),
        ),
  );
}
