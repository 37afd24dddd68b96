import { CreditLedgerDocument, type CreditTransactionType } from '../../generated/graphql.ts';
import type { Api } from '../../lib/api.ts';
import { h, replaceChildren } from '../../lib/dom.ts';
import { formatCount, formatSigned, timeElement } from '../../lib/format.ts';
import { createPager, type Pager } from '../../lib/pager.ts';

const PAGE_SIZE = 20;

const WHAT: Record<CreditTransactionType, string> = {
  PURCHASE: 'Purchase',
  AUTO_RELOAD: 'Auto-reload',
  GRANT: 'Grant',
  DEBIT: 'Spent',
  REFUND: 'Refund',
};

const COLUMNS = ['When', 'What', 'Credits', 'Balance after', 'Reference'] as const;

/** A cell that names its column on narrow screens, where the table's rows become stacked cards. */
const cell = (column: (typeof COLUMNS)[number], ...content: (Node | string)[]) =>
  h('td', { 'data-label': column }, ...content);

/** The credit ledger, newest first, 20 moves a page with Previous and Next. */
export function ledgerSection(
  api: Api,
  onError: (error: unknown) => void,
): { element: HTMLElement; pager: Pager } {
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'cards', id: 'ledger' },
    h('caption', { class: 'visually-hidden' }, 'Credit moves, newest first'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        COLUMNS.map((name) => h('th', { scope: 'col' }, name)),
      ),
    ),
    body,
  );
  const empty = h('p', { class: 'muted', hidden: true }, 'No credit moves yet.');
  const pager = createPager({
    label: 'Ledger pages',
    size: PAGE_SIZE,
    onError,
    load: async (request) => {
      const { creditTransactions } = await api.query(CreditLedgerDocument, request);
      replaceChildren(
        body,
        creditTransactions.edges.map(({ node }) =>
          h(
            'tr',
            {},
            cell('When', timeElement(node.createdAt)),
            cell('What', WHAT[node.type] ?? node.type),
            cell(
              'Credits',
              h('span', { class: node.amount < 0 ? 'debit' : 'credit' }, formatSigned(node.amount)),
            ),
            cell('Balance after', formatCount(node.balanceAfter)),
            cell('Reference', node.ref ? h('code', {}, node.ref) : '—'),
          ),
        ),
      );
      empty.hidden = creditTransactions.edges.length > 0;
      return creditTransactions.pageInfo;
    },
  });
  const element = h(
    'section',
    { 'aria-labelledby': 'ledger-heading' },
    h('h2', { id: 'ledger-heading' }, 'Ledger'),
    table,
    empty,
    pager.element,
  );
  return { element, pager };
}
