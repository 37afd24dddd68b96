import { html, type SafeHtml } from '../pages/html.ts';
import { alert } from '../pages/layout.ts';

export interface Token {
  id: string;
  name: string;
  kind: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  status: string;
}
export interface App {
  id: string;
  clientId: string;
  name: string;
  scopes: string[];
  connectedAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}
export interface Webhook {
  id: string;
  url: string;
  description: string | null;
  active: boolean;
  failureCount: number;
  createdAt: string;
  disabledAt: string | null;
}
export interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  latencyMs: number | null;
  lastError: string | null;
  createdAt: string;
}

/** The spec's limit: an endpoint is disabled after 20 consecutive failures. */
const DISABLED_AFTER_FAILURES = 20;

const day = (iso: string | null, none = '—') => (iso ? iso.slice(0, 10) : none);
const minute = (iso: string | null, none = 'never') =>
  iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : none;

export function nav(csrf: string, current: 'tokens' | 'apps' | 'webhooks'): SafeHtml {
  const link = (path: string, name: string, key: string) =>
    key === current
      ? html`<a href="${path}" aria-current="page">${name}</a>`
      : html`<a href="${path}">${name}</a>`;
  return html`<nav class="actions" aria-label="Settings">
${link('/settings/tokens', 'Access tokens', 'tokens')} ${link('/settings/apps', 'Connected apps', 'apps')} ${link('/settings/webhooks', 'Webhooks', 'webhooks')} <a href="/dashboard">Dashboard</a>
<form method="post" action="/settings/sign-out"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary">Sign out</button></form>
</nav>`;
}

export function tokensPage(csrf: string, tokens: Token[], error?: string | null): SafeHtml {
  const rows = tokens.map(
    (t) => html`<tr>
<td>${t.name}<br><code>${t.prefix}</code></td><td>${day(t.createdAt)}</td><td>${minute(t.lastUsedAt)}</td>
<td>${day(t.expiresAt, 'never')}</td><td>${t.scopes.join(', ')}</td><td>${t.status}</td>
<td>${
      t.status === 'active'
        ? html`<form method="post" action="/settings/tokens/${t.id}/revoke"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary" aria-label="Revoke ${t.name}">Revoke</button></form>`
        : html``
    }</td></tr>`,
  );
  return html`${nav(csrf, 'tokens')}${alert(error)}
<h2>Create a personal access token</h2>
<form class="stack" method="post" action="/settings/tokens">
<input type="hidden" name="csrf" value="${csrf}">
<label for="name">Name<input id="name" name="name" required maxlength="200"></label>
<label for="expires">Expires<select id="expires" name="expires">
<option value="30d">in 30 days</option><option value="90d" selected>in 90 days</option><option value="1y">in 1 year</option><option value="none">never</option>
</select></label>
<fieldset><legend>Scopes</legend>
<label class="check"><input type="checkbox" name="scopes" value="svc:mcp" checked> svc:mcp — the API and agent tools</label>
<label class="check"><input type="checkbox" name="scopes" value="svc:fraud"> svc:fraud — the fraud-risk score</label>
</fieldset>
<div class="actions"><button type="submit">Create token</button></div>
</form>
<h2>Your tokens</h2>
${
  tokens.length
    ? html`<table><thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">Scopes</th><th scope="col">Status</th><th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p class="muted">No tokens yet.</p>`
}`;
}

export function createdSecretPage(csrf: string, what: string, secret: string, back: string): SafeHtml {
  return html`${nav(csrf, back === '/settings/webhooks' ? 'webhooks' : 'tokens')}
<p role="status">${what} It is shown <strong>only this once</strong>: copy it now.</p>
<code class="secret" id="secret">${secret}</code>
<p><a href="${back}">Done</a></p>`;
}

export function appsPage(csrf: string, apps: App[], error?: string | null): SafeHtml {
  const rows = apps.map(
    (
      a,
    ) => html`<tr><td>${a.name}<br><span class="muted">${a.clientId}</span></td><td>${a.scopes.join(', ')}</td>
<td>${day(a.connectedAt)}</td><td>${minute(a.lastUsedAt)}</td><td>${day(a.expiresAt, 'never')}</td>
<td><form method="post" action="/settings/apps/${a.id}/disconnect"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary" aria-label="Disconnect ${a.name}">Disconnect</button></form></td></tr>`,
  );
  return html`${nav(csrf, 'apps')}${alert(error)}
<p>Apps (agents) you allowed to use your account through OAuth. Disconnecting one ends its access at once.</p>
${
  apps.length
    ? html`<table><thead><tr><th scope="col">App</th><th scope="col">Scopes</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col">Lapses</th><th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p class="muted">No connected apps.</p>`
}`;
}

export function webhooksPage(csrf: string, endpoints: Webhook[], error?: string | null): SafeHtml {
  // Pausing also stamps disabledAt; only the failure count tells an automatic disabling apart.
  const state = (w: Webhook) =>
    w.active ? 'active' : w.failureCount >= DISABLED_AFTER_FAILURES ? 'disabled after failures' : 'paused';
  const rows = endpoints.map(
    (
      w,
    ) => html`<tr><td><a href="/settings/webhooks/${w.id}">${w.url}</a><br><span class="muted">${w.description ?? ''}</span></td>
<td>${state(w)}</td><td>${w.failureCount}</td><td>${day(w.createdAt)}</td>
<td class="actions"><form method="post" action="/settings/webhooks/${w.id}/${w.active ? 'pause' : 'resume'}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary">${w.active ? 'Pause' : 'Resume'}</button></form>
<form method="post" action="/settings/webhooks/${w.id}/delete"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary" aria-label="Delete ${w.url}">Delete</button></form></td></tr>`,
  );
  return html`${nav(csrf, 'webhooks')}${alert(error)}
<h2>Add an endpoint</h2>
<form class="stack" method="post" action="/settings/webhooks">
<input type="hidden" name="csrf" value="${csrf}">
<label for="url">URL (https)<input id="url" name="url" type="url" required maxlength="2000" placeholder="https://example.com/hooks/tributary"></label>
<label for="description">Description<input id="description" name="description" maxlength="500"></label>
<div class="actions"><button type="submit">Add endpoint</button></div>
</form>
<h2>Endpoints</h2>
${
  endpoints.length
    ? html`<table><thead><tr><th scope="col">URL</th><th scope="col">State</th><th scope="col">Failures</th><th scope="col">Created</th><th scope="col"><span class="muted">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p class="muted">No endpoints yet.</p>`
}`;
}

export function deliveriesPage(csrf: string, deliveries: Delivery[]): SafeHtml {
  const rows = deliveries.map(
    (
      d,
    ) => html`<tr><td>${minute(d.createdAt)}</td><td>${d.eventType}</td><td>${d.status}</td><td>${d.attempts}</td>
<td>${d.responseStatus ?? '—'}</td><td>${d.latencyMs === null ? '—' : `${d.latencyMs} ms`}</td><td>${d.lastError ?? ''}</td></tr>`,
  );
  return html`${nav(csrf, 'webhooks')}
<p><a href="/settings/webhooks">All endpoints</a></p>
${
  deliveries.length
    ? html`<table><thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Response</th><th scope="col">Latency</th><th scope="col">Last error</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p class="muted">No deliveries yet.</p>`
}`;
}
