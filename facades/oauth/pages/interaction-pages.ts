import { html, type SafeHtml } from '../../web/pages/html.ts';
import { alert } from '../../web/pages/layout.ts';

export interface SignInView {
  action: string;
  signUpHref: string;
  csrf: string;
  clientName: string;
  email?: string;
  error?: string | null;
}

export function signInForm(view: SignInView): SafeHtml {
  return html`<p>Sign in to connect <strong>${view.clientName}</strong> to your Tributary account.</p>
${alert(view.error)}
<form class="stack" method="post" action="${view.action}">
<input type="hidden" name="csrf" value="${view.csrf}">
<label for="email">Email<input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}"></label>
<label for="password">Password<input id="password" name="password" type="password" autocomplete="current-password" required></label>
<div class="actions"><button type="submit">Sign in</button></div>
</form>
<p class="muted">No account yet? <a href="${view.signUpHref}">Create one</a>.</p>`;
}

export interface SignUpView {
  action: string;
  signInHref: string;
  csrf: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  error?: string | null;
}

export function signUpForm(view: SignUpView): SafeHtml {
  return html`${alert(view.error)}
<form class="stack" method="post" action="${view.action}">
<input type="hidden" name="csrf" value="${view.csrf}">
<label for="email">Email<input id="email" name="email" type="email" autocomplete="email" required value="${view.email ?? ''}"></label>
<label for="first_name">First name<input id="first_name" name="first_name" autocomplete="given-name" maxlength="200" value="${view.firstName ?? ''}"></label>
<label for="last_name">Last name<input id="last_name" name="last_name" autocomplete="family-name" maxlength="200" value="${view.lastName ?? ''}"></label>
<label for="password">Password <span class="muted">(at least 10 characters)</span><input id="password" name="password" type="password" autocomplete="new-password" minlength="10" maxlength="200" required></label>
<div class="actions"><button type="submit">Create account</button></div>
</form>
<p class="muted">Have an account? <a href="${view.signInHref}">Sign in</a>.</p>`;
}

export interface ConsentView {
  action: string;
  csrf: string;
  clientName: string;
  redirectHost: string;
  scopes: { name: string; description: string }[];
  email: string;
}

export function consentForm(view: ConsentView): SafeHtml {
  return html`<p><strong>${view.clientName}</strong> asks to use your Tributary account (${view.email}).</p>
<p>After you approve, you will be sent back to <strong>${view.redirectHost}</strong>.</p>
<h2>It will be able to</h2>
<ul>${view.scopes.map((scope) => html`<li><code>${scope.name}</code>: ${scope.description}</li>`)}</ul>
<form method="post" action="${view.action}">
<input type="hidden" name="csrf" value="${view.csrf}">
<div class="actions">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</div>
</form>
<p class="muted">You can disconnect it at any time in your developer settings.</p>`;
}

export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'svc:mcp':
    'act on your account: read your profile and credits, upload files, save drafts and submit releases (which spends credits)',
  openid: 'know your account id',
  offline_access: 'keep access while you are away',
};
