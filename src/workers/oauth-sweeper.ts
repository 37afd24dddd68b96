import type { EntityManager } from '@mikro-orm/postgresql';
import { sweepOAuth } from '../domains/oauth/index.ts';
import { sweepEmailChallenges } from '../domains/verified-email/index.ts';
import { reportFailure } from '../platform/db/report-failure.ts';
import type { Logger } from '../platform/logger.ts';

const EVERY_MS = 15 * 60 * 1000;

/**
 * Sweeps expired authorization-server rows, old sign-in events and expired verified-email challenges:
 * at start-up, then every 15 minutes (idempotent).
 */
export function startOAuthSweeper(deps: { em: () => EntityManager; logger: Logger }): () => void {
  const run = () =>
    Promise.all([sweepOAuth(deps.em()), sweepEmailChallenges(deps.em(), new Date())])
      .then(([swept, challenges]) => {
        if (swept.models + swept.tokens + swept.signInEvents + challenges > 0)
          deps.logger.info({ ...swept, challenges }, 'swept expired OAuth rows');
      })
      .catch((err) => reportFailure(deps.logger, err, 'OAuth sweep failed'));
  void run();
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
