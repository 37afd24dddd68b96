import type { KoaContextWithOIDC } from 'oidc-provider';
import { html, raw } from '../../web/pages/html.ts';
import { page } from '../../web/pages/layout.ts';

/**
 * oidc-provider's sign-out question (`/oauth/logout`) in our layout, under our pages' policy (its own
 * page loads a web font and styles itself inline). `form` is the provider's own hidden form, holding
 * its CSRF token; the buttons submit it.
 */
export async function logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  ctx.type = 'html';
  ctx.body = page(
    'Sign out',
    html`${raw(form)}<p>Sign out of Tributary on this browser? Apps you approved keep their access.</p>
<div class="actions">
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button>
<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>
</div>`,
  );
}

/** After signing out, when the client named no page to return to. */
export async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  ctx.type = 'html';
  ctx.body = page('Signed out', html`<p>You are signed out of Tributary on this browser.</p>`);
}
