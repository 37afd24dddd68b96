import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium, headless, driven by playwright-core (CI installs it; npm's browsers cannot). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run \`apt-get install -y chromium\` (CI does).`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * One chromium for the file's tests, launched before them and closed after (Playwright starts it with a
 * fresh temporary profile and removes it on close).
 */
export function useChromium(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('chromium is not running: call browser() inside a test.');
    return browser;
  };
}

/** Where browser tests leave screenshots (TEST_ARTEFACTS_DIR, default test-artefacts/, not committed). */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = path.resolve(process.env.TEST_ARTEFACTS_DIR ?? 'test-artefacts');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
