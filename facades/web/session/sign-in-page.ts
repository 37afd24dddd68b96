import { html, type SafeHtml } from '../pages/html.ts';
import { alert } from '../pages/layout.ts';

/** The title of the sign-in page: it names where the person is going. */
export const signInTitle = (next: string | null) =>
  next?.startsWith('/dashboard') ? 'Sign in to your dashboard' : 'Sign in to developer settings';

export function signInPage(csrf: string, next: string | null, error?: string | null, email = ''): SafeHtml {
  return html`${alert(error)}
<form class="stack" method="post" action="/settings/sign-in">
<input type="hidden" name="csrf" value="${csrf}">
${next ? html`<input type="hidden" name="next" value="${next}">` : html``}
<label for="email">Email<input id="email" name="email" type="email" autocomplete="username" required value="${email}"></label>
<label for="password">Password<input id="password" name="password" type="password" autocomplete="current-password" required></label>
<div class="actions"><button type="submit">Sign in</button></div>
</form>`;
}
