import { findStore } from '../catalog/index.ts';
import { formatSftpUrl } from './sftp-url.ts';
import type { StoreConnection } from './store-connection.entity.ts';

/** A connection as the operator sees it: everything but the credential. */
export function connectionView(connection: StoreConnection) {
  return {
    storeId: connection.storeId,
    storeName: findStore(connection.storeId)?.name ?? null,
    sftp: formatSftpUrl({
      username: connection.username,
      host: connection.host,
      port: connection.port,
      root: connection.rootPath,
    }),
    auth: connection.authMethod,
    hostKey: connection.hostKeyFingerprint,
    recipientDpid: connection.recipientDpid,
    recipientName: connection.recipientName,
    choreography: connection.choreography,
    createdAt: connection.createdAt.toISOString(),
    updatedAt: connection.updatedAt.toISOString(),
  };
}
