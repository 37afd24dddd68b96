import { describe } from 'vitest';
import { useTestApp } from '../../../test/support/app.ts';
import { accountCases } from './auth.cases.ts';
import { oauthLoginCases } from './oauth-login.cases.ts';
import { statusWatchCases } from './status-watch.cases.ts';
import { uploadCases } from './upload.cases.ts';
import { webhookCases } from './webhooks.cases.ts';

/**
 * The commands against one service (its start is most of a file's time): the sandbox moves only when a
 * test steps it (SANDBOX_STEP_SECONDS is 300). releases.test.ts runs its own, stepping by itself.
 */
describe('tributary', () => {
  const app = useTestApp({ SANDBOX_STEP_SECONDS: '300' });
  accountCases(app);
  oauthLoginCases(app);
  uploadCases(app);
  webhookCases(app);
  statusWatchCases(app);
});
