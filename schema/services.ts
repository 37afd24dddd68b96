import type { AppConfig } from '../src/platform/config.ts';
import type { Orm } from '../src/platform/db/orm.ts';
import type { Logger } from '../src/platform/logger.ts';

/** Long-lived things every request can reach: built once at start-up, shared by all surfaces. */
export interface AppServices {
  config: AppConfig;
  orm: Orm;
  logger: Logger;
  startedAt: Date;
  version: string;
}
