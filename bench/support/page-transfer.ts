/**
 * What a page's first load costs on the wire, as Chromium's DevTools protocol reports it: every
 * response's `encodedDataLength` (compressed bytes received, headers included) by resource type, and
 * the WebSocket frames' payloads. A new browser context has an empty HTTP cache: a cold first load.
 */
import type { BrowserContext, Page } from 'playwright-core';

export interface Transfer {
  /** Bytes by kind: document, script, stylesheet, api (fetch), image, websocket, other. */
  bytes: Record<string, number>;
  total: number;
  requests: number;
}

const KIND: Record<string, string> = {
  Document: 'document',
  Script: 'script',
  Stylesheet: 'stylesheet',
  Fetch: 'api',
  XHR: 'api',
  Image: 'image',
};

/** Loads `url` in `context`'s new page and counts its transfer until `ready` holds and the network rests. */
export async function firstLoadTransfer(
  context: BrowserContext,
  url: string,
  ready: (page: Page) => Promise<unknown>,
): Promise<Transfer> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const kinds = new Map<string, string>();
  const bytes: Record<string, number> = {};
  let requests = 0;
  const add = (kind: string, n: number) => {
    bytes[kind] = (bytes[kind] ?? 0) + n;
  };
  cdp.on('Network.requestWillBeSent', (event) => {
    requests++;
    kinds.set(event.requestId, KIND[event.type ?? ''] ?? 'other');
  });
  cdp.on('Network.loadingFinished', (event) =>
    add(kinds.get(event.requestId) ?? 'other', event.encodedDataLength),
  );
  cdp.on('Network.webSocketFrameReceived', (event) => add('websocket', event.response.payloadData.length));
  cdp.on('Network.webSocketFrameSent', (event) => add('websocket', event.response.payloadData.length));
  await cdp.send('Network.enable');
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  await page.close();
  return { bytes, total: Object.values(bytes).reduce((a, b) => a + b, 0), requests };
}

/**
 * Milliseconds from navigation start to the first element matching `selector` in the DOM, read in the
 * page (a MutationObserver installed before the page's own scripts run).
 */
export async function timeToFirst(page: Page, url: string, selector: string): Promise<number> {
  await page.goto(url);
  const handle = await page.waitForFunction(
    (wanted) => (globalThis as unknown as Record<string, number | undefined>)[wanted],
    `first:${selector}`,
  );
  return Number(await handle.jsonValue());
}

/** Installs the observer timeToFirst reads, for every page of the context from now on. */
export async function observeFirst(context: BrowserContext, selector: string): Promise<void> {
  await context.addInitScript((wanted) => {
    const key = `first:${wanted}`;
    const observer = new MutationObserver(() => {
      if (document.querySelector(wanted)) {
        (globalThis as unknown as Record<string, number>)[key] = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  }, selector);
}
