/**
 * The dashboard where `/graphql` runs trusted documents only (GRAPHQL_TRUSTED_DOCUMENTS_ONLY=true with
 * another manifest, the client's): its own documents are trusted at start, so its pages work the same.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { grantCredits } from '../../src/domains/credits/grant-credits.ts';
import { useTestApp } from '../support/app.ts';
import { useChromium } from '../support/browser.ts';
import { cspViolations, signInPage, watchOrigin } from '../support/dashboard.ts';
import { accountWithPassword } from '../support/oauth.ts';

const app = useTestApp({
  GRAPHQL_TRUSTED_DOCUMENTS_ONLY: 'true',
  GRAPHQL_DOCUMENTS_FILE: path.resolve('packages/client/src/generated/graphql/persisted-documents.json'),
});
const browser = useChromium();

describe('dashboard with trusted documents only', () => {
  it('shows the balance and the ledger, and the API still refuses a text of its own', async () => {
    const account = await accountWithPassword(app().em(), 'trusted.only@example.com');
    await grantCredits(app().em(), { accountId: account.id, credits: 7, ref: 'welcome' });
    const context = await browser().newContext();
    const origin = watchOrigin(context, new URL(app().url).origin);
    const page = await context.newPage();
    const refused = cspViolations(page);
    await signInPage(page, app().url, account);
    await expect.poll(() => page.locator('#balance').textContent()).toBe('7');
    await expect.poll(() => page.locator('#ledger tbody tr').count()).toBe(1);
    expect(await page.locator('#alerts').textContent()).toBe('');
    // The page's token with a document of no manifest: refused, so the mode is on.
    const answer = await page.evaluate(async () => {
      const { token } = JSON.parse(document.getElementById('dashboard-boot')?.textContent ?? '{}') as {
        token: string;
      };
      const response = await fetch('/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ credits { balance } }' }),
      });
      return { status: response.status, body: await response.text() };
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('trusted_documents_only');
    origin.check();
    expect(refused).toEqual([]);
    await context.close();
  }, 60_000);
});
