import { html, raw, type SafeHtml } from '../pages/html.ts';
import { ASSETS_PATH, type PageScript } from './assets.ts';
import { NAV, type NavKey } from './pages.ts';

/** What the page's script reads from its boot block (packages/dashboard/src/lib/boot.ts). */
export interface Boot {
  token: string;
  tokenExpiresAt: string;
  graphqlPath: string;
  page: string;
  params: Record<string, string>;
}

export interface ShellView {
  title: string;
  nav: NavKey | null;
  csrf: string;
  stylesheet: string;
  /** The page's script, with its boot data; null for a page without one (its body says why). */
  script: { files: PageScript; boot: Boot } | null;
  /** Shown in `<main>` instead of the script's content (a page not built yet, or not found). */
  message?: SafeHtml;
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>` and `&` escaped (the HTML parser ends the
 * block at the first `</script`), and U+2028/U+2029 too. JSON.parse reads the escapes back.
 */
export function jsonForScriptBlock(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const asset = (file: string) => `${ASSETS_PATH}/${file}`;

function navigation(current: NavKey | null, csrf: string): SafeHtml {
  const links = NAV.map((item) =>
    item.key === current
      ? html`<li><a href="${item.href}" aria-current="page">${item.label}</a></li>`
      : html`<li><a href="${item.href}">${item.label}</a></li>`,
  );
  return html`<nav class="dashboard" aria-label="Dashboard">
<ul>
${links}
<li><a href="/settings">Developer settings</a></li>
<li><form method="post" action="/dashboard/sign-out"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary">Sign out</button></form></li>
</ul>
</nav>`;
}

const NO_SCRIPT = html`<noscript><p>The dashboard runs in your browser: turn on JavaScript to use it. Your <a href="/settings">developer settings</a> work without it.</p></noscript>`;

/**
 * A dashboard page as the server sends it: the navigation, the page's heading, the alert and notice
 * regions, and the `<main>` region (#page) its script fills; a message for a browser without scripts.
 * Scripts are modules of our origin; the boot data is JSON in a block no browser runs.
 */
export function dashboardShell(view: ShellView): string {
  const head = view.script
    ? html`${view.script.files.preload.map(
        (file) => html`<link rel="modulepreload" href="${asset(file)}">
`,
      )}<script type="module" src="${asset(view.script.files.file)}"></script>
<script type="application/json" id="dashboard-boot">${raw(jsonForScriptBlock(view.script.boot))}</script>`
    : html``;
  const body =
    view.message ??
    (view.script ? html`${NO_SCRIPT}<p class="muted">Loading…</p>` : html`<p>This page is on its way.</p>`);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${view.title} · Tributary</title>
<link rel="stylesheet" href="${asset(view.stylesheet)}">
${head}
</head>
<body>
<a class="skip" href="#main">Skip to the page</a>
<header class="site"><span class="brand">Tributary</span>
${navigation(view.nav, view.csrf)}
</header>
<main id="main" class="dashboard" tabindex="-1">
<h1>${view.title}</h1>
<div id="alerts" role="alert"></div>
<p id="notice" role="status"></p>
<div id="page">${body}</div>
</main>
</body>
</html>
`.value;
}
