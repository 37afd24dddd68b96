import { CreditLedgerDocument } from '../../generated/graphql.ts';
import { showNotice } from '../../lib/alerts.ts';
import type { Api } from '../../lib/api.ts';
import { formatCount } from '../../lib/format.ts';
import { PENDING_CHECKOUT_KEY, type PendingCheckout } from './buy.ts';

const POLLS = 15;
const POLL_INTERVAL_MS = 2_000;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pendingCheckout(): PendingCheckout | null {
  try {
    const pending = JSON.parse(
      sessionStorage.getItem(PENDING_CHECKOUT_KEY) ?? 'null',
    ) as PendingCheckout | null;
    return pending && typeof pending.sessionId === 'string' ? pending : null;
  } catch {
    return null;
  }
}

/**
 * Back from a checkout (`?checkout=returned`): waits for the purchase's ledger move (ref
 * `checkout:<sessionId>`; the processor confirms the payment on its own time, the sandbox at once),
 * then says so and answers true so the page reloads its balance and ledger.
 */
export async function awaitReturnedCheckout(api: Api): Promise<boolean> {
  if (new URLSearchParams(location.search).get('checkout') !== 'returned') return false;
  history.replaceState(null, '', location.pathname);
  const pending = pendingCheckout();
  if (!pending) return false;
  showNotice('Payment received: waiting for its confirmation…');
  for (let poll = 0; poll < POLLS; poll++) {
    const { creditTransactions } = await api.query(CreditLedgerDocument, { first: 20 });
    const move = creditTransactions.edges.find(({ node }) => node.ref === `checkout:${pending.sessionId}`);
    if (move) {
      sessionStorage.removeItem(PENDING_CHECKOUT_KEY);
      showNotice(
        `${formatCount(move.node.amount)} credits added: your balance is ${formatCount(move.node.balanceAfter)}.`,
      );
      return true;
    }
    await wait(POLL_INTERVAL_MS);
  }
  showNotice('Your payment is still being confirmed: the credits appear here once it is.');
  return false;
}
