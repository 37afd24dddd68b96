import { CreditsOverviewDocument } from '../../generated/graphql.ts';
import { clearError, showError } from '../../lib/alerts.ts';
import { h, replaceChildren } from '../../lib/dom.ts';
import { formatCount, timeElement } from '../../lib/format.ts';
import { startPage } from '../../lib/page.ts';
import { buySection } from './buy.ts';
import { ledgerSection } from './ledger.ts';
import { awaitReturnedCheckout } from './return.ts';

/** /dashboard/credits: the balance, Buy credits (a hosted checkout that returns here), the ledger. */
startPage(async ({ api, root }) => {
  const overview = await api.query(CreditsOverviewDocument);
  const balance = h('strong', { id: 'balance' }, formatCount(overview.credits.balance));
  const updated = h('p', { class: 'muted' }, 'Updated ', timeElement(overview.credits.updatedAt));
  const ledger = ledgerSection(api, showError);
  replaceChildren(
    root,
    h(
      'section',
      { 'aria-labelledby': 'balance-heading' },
      h('h2', { id: 'balance-heading' }, 'Balance'),
      h('p', { class: 'balance' }, balance, ' credits'),
      updated,
    ),
    buySection(api, overview.pricing.bundles, showError),
    ledger.element,
  );
  await ledger.pager.start();
  if (await awaitReturnedCheckout(api)) {
    clearError();
    const fresh = await api.query(CreditsOverviewDocument);
    balance.textContent = formatCount(fresh.credits.balance);
    replaceChildren(updated, 'Updated ', timeElement(fresh.credits.updatedAt));
    await ledger.pager.reload();
  }
});
