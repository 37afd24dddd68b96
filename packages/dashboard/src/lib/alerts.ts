import { h, replaceChildren } from './dom.ts';
import { ApiError, RetryLaterError, SessionEndedError } from './errors.ts';

/** The shell's regions: errors (`role="alert"`, announced at once) and notices (`role="status"`). */
const alerts = () => document.getElementById('alerts');
const notices = () => document.getElementById('notice');

/** The sign-in page, coming back to this one. */
export const signInAgainUrl = () =>
  `/settings/sign-in?${new URLSearchParams({ next: `${location.pathname}${location.search}` })}`;

/** Shows an error in the alert region: the API's message, what to do next, and the request id. */
export function showError(error: unknown): void {
  const region = alerts();
  if (!region) return;
  if (error instanceof SessionEndedError) {
    replaceChildren(
      region,
      h('p', {}, 'Your session has ended. ', h('a', { href: signInAgainUrl() }, 'Sign in again'), '.'),
    );
    return;
  }
  if (error instanceof ApiError) {
    const wait =
      error instanceof RetryLaterError && error.retryAfterSeconds !== undefined
        ? ` Try again in ${error.retryAfterSeconds} s.`
        : '';
    replaceChildren(
      region,
      h('p', {}, `${error.message}${wait}`),
      error.details.length > 0 &&
        h(
          'ul',
          {},
          error.details.map((d) => h('li', {}, `${d.path}: ${d.message}`)),
        ),
      error.requestId && h('p', { class: 'muted' }, `Request id: ${error.requestId}`),
    );
    return;
  }
  console.error(error);
  replaceChildren(region, h('p', {}, 'Something went wrong on this page: reload it to try again.'));
}

export function clearError(): void {
  const region = alerts();
  if (region) replaceChildren(region);
}

/** A notice that something happened (announced politely): "25 credits added." */
export function showNotice(text: string): void {
  const region = notices();
  if (region) region.textContent = text;
}
