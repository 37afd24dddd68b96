import type { EntityManager } from '@mikro-orm/postgresql';
import { sweepUploads } from '../domains/uploads/index.ts';
import { reportFailure } from '../platform/db/report-failure.ts';
import type { Logger } from '../platform/logger.ts';
import type { Scratch } from '../platform/scratch.ts';

const EVERY_MS = 10 * 60 * 1000;

/**
 * Expires abandoned upload sessions and clears stale scratch files: once at start-up, then every ten
 * minutes. Idempotent, so several instances may run it.
 */
export function startUploadSweeper(deps: {
  em: () => EntityManager;
  scratch: Scratch;
  logger: Logger;
}): () => void {
  const run = () =>
    sweepUploads(deps.em(), deps.scratch)
      .then(({ expired }) => {
        if (expired > 0) deps.logger.info({ expired }, 'expired abandoned upload sessions');
      })
      .catch((err) => reportFailure(deps.logger, err, 'upload sweep failed'));
  void run();
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
