import { html } from '../../web/pages/html.ts';
import { page } from '../../web/pages/layout.ts';

/** The authorization server's error page (a request it cannot send back to the client). */
export function renderProviderError(
  out: { error?: string; error_description?: string },
  _error: unknown,
): string {
  return page(
    'Sign-in cannot go on',
    html`<p class="alert" role="alert">${out.error_description ?? out.error ?? 'The request is not valid.'}</p>
<p class="muted">Error code: <code>${out.error ?? 'invalid_request'}</code>. Start again from the app that sent you here.</p>`,
  );
}
