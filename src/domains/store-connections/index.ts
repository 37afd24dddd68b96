export {
  type ConnectStoreInput,
  type Credential,
  connectStore,
  disconnectStore,
  getStoreConnection,
  listStoreConnections,
  sftpAppError,
  sftpTargetOf,
  testStoreConnection,
} from './connections.ts';
export {
  checkSenderForConnections,
  requireSenderIdentity,
  type SenderIdentity,
  senderIdentity,
} from './sender.ts';
export { formatSftpUrl, parseSftpUrl, type SftpLocation } from './sftp-url.ts';
export {
  type AuthMethod,
  CHOREOGRAPHIES,
  type Choreography,
  StoreConnection,
} from './store-connection.entity.ts';
export { connectionView } from './views.ts';
