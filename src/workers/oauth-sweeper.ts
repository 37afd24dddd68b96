import type { EntityManager } from '@mikro-orm/postgresql';
import { sweepOAuth } from '../domains/oauth/sweep.ts';
import type { Logger } from '../platform/logger.ts';

const EVERY_MS = 15 * 60 * 1000;

/** Sweeps expired authorization-server rows and old sign-in events: at start-up, then every 15 minutes (idempotent). */
export function startOAuthSweeper(deps: { em: () => EntityManager; logger: Logger }): () => void {
  const run = () =>
    sweepOAuth(deps.em())
      .then((swept) => {
        if (swept.models + swept.tokens + swept.signInEvents > 0)
          deps.logger.info(swept, 'swept expired OAuth rows');
      })
      .catch((err) => deps.logger.error({ err }, 'OAuth sweep failed'));
  void run();
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
