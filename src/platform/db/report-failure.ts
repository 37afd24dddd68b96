import type { Logger } from '../logger.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

/**
 * Logs a background failure as an error, unless the database being away explains it: that outage is
 * logged once when it starts and once when it ends (ConnectionState), and each retry meeting it only at
 * debug level, so a restart does not bury the log under one line per worker per second.
 */
export function reportFailure(logger: Logger, err: unknown, message: string, fields: object = {}): void {
  if (isDatabaseUnavailable(err)) logger.debug({ ...fields, err }, `${message} (database unavailable)`);
  else logger.error({ ...fields, err }, message);
}
