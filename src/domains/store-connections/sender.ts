import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../platform/config.ts';
import { StartError } from '../../platform/db/start-error.ts';
import { invalidRequest } from '../../platform/errors.ts';
import { StoreConnection } from './store-connection.entity.ts';

/** Who DDEX messages name as their sender (`MessageSender`): the distributor's own DDEX party. */
export interface SenderIdentity {
  dpid: string;
  name: string;
}

const FIX =
  'set DDEX_SENDER_DPID (your DDEX party id: PADPIDA and 11 letters or digits) and DDEX_SENDER_NAME (the name stores know you by)';

export function senderIdentity(
  config: Pick<AppConfig, 'DDEX_SENDER_DPID' | 'DDEX_SENDER_NAME'>,
): SenderIdentity | null {
  return config.DDEX_SENDER_DPID && config.DDEX_SENDER_NAME
    ? { dpid: config.DDEX_SENDER_DPID, name: config.DDEX_SENDER_NAME }
    : null;
}

/** For store:connect: a store may only be connected once messages to it can name their sender. */
export function requireSenderIdentity(
  config: Pick<AppConfig, 'DDEX_SENDER_DPID' | 'DDEX_SENDER_NAME'>,
): SenderIdentity {
  const sender = senderIdentity(config);
  if (!sender) {
    throw invalidRequest(
      `Messages to a connected store name Tributary's sender, which is not configured: ${FIX}, then connect the store again.`,
      undefined,
      'sender_not_configured',
    );
  }
  return sender;
}

/** At start-up: a connected store without a configured sender stops the service with one line. */
export async function checkSenderForConnections(
  em: EntityManager,
  config: Pick<AppConfig, 'DDEX_SENDER_DPID' | 'DDEX_SENDER_NAME'>,
): Promise<void> {
  if (senderIdentity(config)) return;
  const connected = await em.find(StoreConnection, {}, { fields: ['storeId'], orderBy: { storeId: 'asc' } });
  if (connected.length === 0) return;
  const ids = connected.map((each) => each.storeId);
  const which = ids.length === 1 ? `Store ${ids[0]} is` : `Stores ${ids.join(', ')} are`;
  throw new StartError(
    `${which} connected over SFTP but DDEX_SENDER_DPID and DDEX_SENDER_NAME are not set: ${FIX}, or disconnect ${ids.length === 1 ? 'it' : 'them'} with npm run admin -- store:disconnect --store <id>.`,
  );
}
