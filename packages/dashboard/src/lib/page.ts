import { showError } from './alerts.ts';
import { type Api, createApi } from './api.ts';
import { type Boot, readBoot } from './boot.ts';
import { byId } from './dom.ts';
import { NotFoundError } from './errors.ts';
import { showNotFound } from './not-found.ts';

/** What a page's render function gets. */
export interface PageContext {
  boot: Boot;
  api: Api;
  /** The element under the page's heading the script fills (`#page` in the shell's `<main>`). */
  root: HTMLElement;
}

/**
 * A page's entry point: `startPage(async ({ api, root }) => { … })` in src/pages/<page>/main.ts. The
 * page's region is busy while `render` runs; an error it throws is shown in the alert region, and a
 * NotFoundError (an id in the URL that is unknown or another account's) becomes the "not found" view.
 */
export function startPage(render: (context: PageContext) => Promise<void>): void {
  const boot = readBoot();
  const root = byId('page');
  // Subscriptions are a page's own import (subscriptions.ts): graphql-ws goes only into their bundles.
  const context: PageContext = {
    boot,
    api: createApi({ token: boot.token, endpoint: boot.graphqlPath }),
    root,
  };
  root.setAttribute('aria-busy', 'true');
  render(context)
    .catch((error: unknown) => {
      if (error instanceof NotFoundError) showNotFound(root);
      else showError(error);
    })
    .finally(() => root.removeAttribute('aria-busy'));
}
