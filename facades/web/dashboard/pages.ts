/** The dashboard's navigation: each page is under one of these. */
export const NAV = [
  { key: 'releases', href: '/dashboard/releases', label: 'Releases' },
  { key: 'streams', href: '/dashboard/streams', label: 'Streams' },
  { key: 'credits', href: '/dashboard/credits', label: 'Credits' },
] as const;

export type NavKey = (typeof NAV)[number]['key'];

/** One page of the dashboard: a server-rendered shell whose script fills its `<main>`. */
export interface DashboardPage {
  /** An express path; `:id` parameters must be UUIDs (anything else answers the "not found" page). */
  path: string;
  /** The page's `<h1>` and title. */
  title: string;
  nav: NavKey;
  /**
   * The page's script: packages/dashboard/src/pages/<entry>/main.ts, bundled as `<entry>.<hash>.js`.
   * Null while the page has none yet (the shell says so).
   */
  entry: string | null;
}

/** The pages, in no particular order; docs/dashboard.md, "Adding a page", says how to add one. */
export const DASHBOARD_PAGES: readonly DashboardPage[] = [
  { path: '/dashboard/releases', title: 'Releases', nav: 'releases', entry: 'releases' },
  { path: '/dashboard/releases/:id', title: 'Release', nav: 'releases', entry: 'release' },
  { path: '/dashboard/streams', title: 'Streams', nav: 'streams', entry: 'streams' },
  { path: '/dashboard/credits', title: 'Credits', nav: 'credits', entry: 'credits' },
];

/** Where /dashboard itself goes. */
export const DASHBOARD_HOME = '/dashboard/releases';
