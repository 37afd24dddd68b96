import { checkSenderForConnections } from '../src/domains/store-connections/index.ts';
import type { AppConfig } from '../src/platform/config.ts';
import type { Orm } from '../src/platform/db/orm.ts';

/**
 * Settings that are only wrong given what the database holds, checked once it is open: each problem is
 * a StartError, printed as one line by the start-up.
 */
export async function checkSettingsAgainstData(config: AppConfig, orm: Orm): Promise<void> {
  await checkSenderForConnections(orm.em.fork(), config);
}
