export {
  type Credential,
  connectStore,
  disconnectStore,
  listStoreConnections,
  sftpTargetOf,
  testStoreConnection,
} from './connections.ts';
export {
  checkSenderForConnections,
  requireSenderIdentity,
  type SenderIdentity,
  senderIdentity,
} from './sender.ts';
export { type Choreography, StoreConnection } from './store-connection.entity.ts';
export { connectionView } from './views.ts';
