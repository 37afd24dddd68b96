import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { Plugin } from 'graphql-yoga';
import { inlineScriptHashes, pageHeaders } from '../security-headers.ts';

const OPTIONS = { subscriptionsProtocol: 'WS', title: 'Tributary GraphiQL' } as const;

/**
 * What GraphiQL needs and nothing more: its one inline script (by hash), its editor's workers (blob:
 * URLs the script makes), its inline styles and data: fonts and icons, and requests to this origin
 * (fetch and the WebSocket of subscriptions). Nobody may frame it.
 */
function graphiqlPolicy(page: string): string {
  return [
    "default-src 'none'",
    `script-src ${inlineScriptHashes(page).join(' ')}`,
    'worker-src blob:',
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * GraphiQL for yoga: its options, its renderer (the page is the same on every request, so it is built
 * once), and a plugin giving the page our pages' security headers with the policy above.
 */
export function graphiql() {
  let page: { html: string; headers: Record<string, string> } | undefined;
  const render = () => {
    if (!page) {
      const html = renderGraphiQL(OPTIONS);
      page = { html, headers: { ...pageHeaders(graphiqlPolicy(html)), 'Cache-Control': 'no-store' } };
    }
    return page;
  };
  const plugin: Plugin = {
    onResponse: ({ response }) => {
      if (!page || !response.headers.get('content-type')?.startsWith('text/html')) return;
      for (const [name, value] of Object.entries(page.headers)) response.headers.set(name, value);
    },
  };
  return { options: OPTIONS, render: () => render().html, plugin };
}
