import { readFileSync } from 'node:fs';
import { STYLESHEET } from '../pages/stylesheet.ts';

/**
 * The dashboard's additions to the web pages' stylesheet: a navigation that wraps, wider pages, status
 * chips (a word and a shape besides the colour), tables that become stacked cards below 40rem (no
 * sideways scrolling at 360 px), the pager. Served with the site's rules as one immutable file. The
 * alert and notice regions stay rendered while empty: a live region shown only once filled is not
 * announced by every screen reader.
 */
/**
 * The Releases and Release pages: what is hidden stays hidden whatever its display rule, primary buttons
 * readable in the dark scheme (dark text on the light accent), the search box, covers (a placeholder without one), the release's
 * facts, the store table's failures, the confirmation dialog and its destructive button; on narrow
 * screens a release's card puts its cover beside its text, and a row's header cell reads as its cells do.
 */
const RELEASE_RULES = `[hidden]{display:none!important}
@media (prefers-color-scheme:dark){button:not(.secondary):not(.danger){color:#0d1b2e}}
.search{display:grid;gap:.35rem;max-width:32rem}.search label{font-weight:600}.search p{margin:0}.search-row{display:flex;gap:.5rem}.search-row input{flex:1;min-width:0}
.cover,.cover-large{display:block;border-radius:4px;object-fit:cover;background:var(--chip-bg);color:var(--muted)}.cover{width:48px;height:48px}.cover-large{width:160px;height:160px;flex:none}
.cover-none{display:flex;align-items:center;justify-content:center;font-size:1.4rem}
.release-name{display:grid}.release-name a{font-weight:600;overflow-wrap:anywhere}
.release-summary{display:flex;gap:1.25rem;align-items:flex-start;flex-wrap:wrap}.release-summary>div{flex:1;min-width:14rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.5rem 0}dl.facts div{display:contents}dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere}
table.cards tbody th{font-weight:600}.store-failed{color:var(--bad);font-weight:600}
form#add-stores,form#take-down{max-width:none}.store-choices{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.3rem .75rem}.form-problem{color:var(--bad);margin:0}.form-problem:empty{display:none}
button.danger{background:var(--bad-bg);color:var(--bad-fg);border-color:var(--bad-fg)}
dialog{max-width:min(34rem,calc(100vw - 2rem));border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg);padding:1.25rem}dialog::backdrop{background:rgb(0 0 0 / .45)}dialog h2{margin-top:0}
@media (max-width:40rem){table.cards tbody th{display:flex;gap:1rem;justify-content:space-between;width:100%;border:0;padding:.25rem 0;text-align:right}
table.cards tbody th::before{content:attr(data-label);text-align:left}
table.releases tr{display:grid;grid-template-columns:3rem minmax(0,1fr);column-gap:.75rem}
table.releases td[data-label=Cover]{grid-row:span 4}table.releases td[data-label=Cover]::before,table.releases td[data-label=Release]::before{content:none}
table.releases td[data-label=Release]{text-align:left}}
`;

const DASHBOARD_RULES = `:root{--chip-bg:#eef0f3;--chip-fg:#1b1f24;--ok-bg:#e2f5e9;--ok-fg:#0f5132;--wait-bg:#fff4d6;--wait-fg:#5c4300;--info-bg:#e3efff;--info-fg:#0b3d91;--bad-bg:#fde7e7;--bad-fg:#8a1c1c}
@media (prefers-color-scheme:dark){:root{--chip-bg:#2a3038;--chip-fg:#e8eaed;--ok-bg:#123524;--ok-fg:#a8e6c1;--wait-bg:#3a2f0b;--wait-fg:#f5d98a;--info-bg:#132a4d;--info-fg:#b5d0ff;--bad-bg:#3d1515;--bad-fg:#ffb4ab}}
.skip{position:absolute;left:-999px;top:.5rem;padding:.5rem .75rem;background:var(--bg);border:1px solid var(--accent)}.skip:focus{left:.5rem;z-index:1}
header.site{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
nav.dashboard ul{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center;list-style:none;margin:0;padding:0}
nav.dashboard a{display:inline-block;padding:.35rem .15rem;text-decoration:none}nav.dashboard a:hover{text-decoration:underline}
nav.dashboard a[aria-current=page]{font-weight:700;text-decoration:underline;text-underline-offset:.3em;color:var(--fg)}
nav.dashboard form{margin:0}nav.dashboard button{padding:.35rem .75rem}
main.dashboard{max-width:60rem}main:focus{outline:none}section{margin-block:1.75rem}h2{font-size:1.2rem}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.balance{font-size:1.1rem}.balance strong{font-size:2rem}
#notice:empty{margin:0}#alerts:not(:empty){padding:.6rem .8rem;border:1px solid var(--bad);color:var(--bad);border-radius:6px}#alerts p{margin:.25rem 0}
.chip{display:inline-flex;gap:.35em;align-items:center;padding:.1rem .55rem;border-radius:999px;border:1px solid currentColor;font-size:.9rem;white-space:nowrap;background:var(--chip-bg);color:var(--chip-fg)}
.chip-distributed{background:var(--ok-bg);color:var(--ok-fg)}.chip-pending,.chip-queued{background:var(--wait-bg);color:var(--wait-fg)}
.chip-delivered{background:var(--info-bg);color:var(--info-fg)}.chip-taken-down{background:var(--bad-bg);color:var(--bad-fg)}
.pager{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap;margin-top:.75rem}
button:disabled{opacity:.55;cursor:not-allowed}code{overflow-wrap:anywhere}
.debit{color:var(--bad)}.credit{color:var(--ok-fg)}
@media (max-width:40rem){main{margin:1rem auto;padding:0 .9rem}
table.cards thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;width:100%}
table.cards tr{border:1px solid var(--line);border-radius:6px;margin-bottom:.6rem;padding:.25rem .5rem}
table.cards td{display:flex;gap:1rem;justify-content:space-between;border:0;padding:.25rem 0;text-align:right}
table.cards td::before{content:attr(data-label);font-weight:600;text-align:left}}
${RELEASE_RULES}`;

/**
 * The Streams page: the form (a date input's fields are inside it: while one has focus, chromium matches
 * neither :focus nor :focus-visible on the input, only :focus-within), the key figures, the legend and
 * the series' colours (`--series-<n>`, which the chart reads too, so its lines and the legend's swatches
 * match in light and dark), the bars (SVG sized by attribute, filled here) and the numbers' columns.
 */
const STREAMS_RULES = `:root{--series-1:#0b5cad;--series-2:#b8420d;--series-3:#047857;--series-4:#a21caf;--series-5:#7c5a00;--series-6:#56606d}
@media (prefers-color-scheme:dark){:root{--series-1:#7ab8ff;--series-2:#ff9e6b;--series-3:#5ee0b0;--series-4:#f0a6f5;--series-5:#e8c26a;--series-6:#b3bcc8}}
.series-1{color:var(--series-1)}.series-2{color:var(--series-2)}.series-3{color:var(--series-3)}.series-4{color:var(--series-4)}.series-5{color:var(--series-5)}.series-6{color:var(--series-6)}
select:focus-visible,summary:focus-visible,input[type=date]:focus-within{outline:3px solid var(--accent);outline-offset:2px}
form.filters{display:flex;flex-wrap:wrap;gap:.75rem 1rem;align-items:end}form.filters select{max-width:100%}form.filters label{min-width:0;max-width:100%}
form.filters .presets,form.filters p{flex-basis:100%;margin:0}button.secondary[aria-pressed=true]{background:var(--accent);color:var(--on-accent)}
.scope{font-weight:600}dl.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.75rem;margin:0}
dl.kpis div{border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem}dl.kpis dt{color:var(--muted);font-size:.9rem}dl.kpis dd{margin:0;font-size:1.35rem;font-weight:700}
figure.series{margin:0}.chart{overflow:hidden;min-width:0}.legend-day{margin:.5rem 0 .25rem}
ul.legend{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;list-style:none;margin:0;padding:0}ul.legend li{display:flex;gap:.4rem;align-items:center}
.legend-value{color:var(--muted);font-variant-numeric:tabular-nums}summary{cursor:pointer;padding:.35rem 0}
caption{text-align:left;font-weight:600;padding:.4rem 0}.number{text-align:right;font-variant-numeric:tabular-nums}
table.bars th[scope=row]{font-weight:400}table.bars .bar{display:block;width:100%;height:.5rem;margin-top:.2rem;fill:var(--accent)}
@media (max-width:40rem){table.cards tbody th[scope=row]{display:block;border:0;padding:.25rem 0;font-weight:700}}
`;

/** uPlot's own rules (its chart's layers, axes and cursor), from its package, served with ours. */
const UPLOT_RULES = readFileSync(new URL(import.meta.resolve('uplot/dist/uPlot.min.css')), 'utf8');

export const DASHBOARD_STYLESHEET = `${STYLESHEET}${DASHBOARD_RULES}${STREAMS_RULES}${UPLOT_RULES}`;
