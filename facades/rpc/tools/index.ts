import type { ToolRow } from '../tool.ts';
import { accountTools } from './account.ts';
import { analyticsTools } from './analytics.ts';
import { audioTools } from './audio.ts';
import { authTools } from './auth.ts';
import { catalogTools } from './catalog.ts';
import { coverArtTools } from './cover-art.ts';
import { creditTools } from './credits.ts';
import { deliveryTools } from './delivery.ts';
import { fileTools } from './files.ts';
import { releaseTools } from './releases.ts';
import { storeOperationTools } from './store-operations.ts';
import { webhookTools } from './webhooks.ts';

/** Every agent tool, one row each; `tools/list` shows them in this order. Add a row, not code. */
export const agentTools: ToolRow[] = [
  ...authTools,
  ...accountTools,
  ...creditTools,
  ...catalogTools,
  ...fileTools,
  ...coverArtTools,
  ...audioTools,
  ...releaseTools,
  ...deliveryTools,
  ...storeOperationTools,
  ...analyticsTools,
  ...webhookTools,
];

/**
 * Aliases the spec documents for tools whose rows may not exist yet. They join the row's own aliases when
 * a row with that canonical name is in the table, and are absent from resolution until then.
 */
export const documentedAliases: Record<string, string[]> = {
  get_release_status: ['release_status', 'check_release_status'],
};
