export {
  AUTO_RELOAD_QUEUE,
  type AutoReloadJobData,
  autoReloadQueue,
} from './auto-reload-trigger.ts';
export { CREDIT_TRANSACTION_TYPES, CreditTransaction } from './credit-transaction.entity.ts';
export { grantCredits } from './grant-credits.ts';
export { InsufficientCreditsError, moveAndRecordCredits, postLedgerEntry } from './post-ledger-entry.ts';
export {
  BUNDLES,
  CHECKOUT_TOOL,
  CREDIT_PRICE_CENTS,
  CREDITS_PER_AI_TRACK,
  CREDITS_PER_HUMAN_TRACK,
  CUSTOM_CHECKOUT_CREDITS,
  cheapestBundleCovering,
  checkoutLinkFor,
  describeBundle,
  pricing,
  TOKEN_OFFSET_CREDITS,
} from './pricing.ts';
export {
  type CreditsSummary,
  DEFAULT_TRANSACTION_LIMIT,
  MAX_TRANSACTION_LIMIT,
  pageOfTransactions,
  readCredits,
} from './read-credits.ts';
