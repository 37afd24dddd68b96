export {
  type Credential,
  connectStore,
  disconnectStore,
  listStoreConnections,
  testStoreConnection,
} from './connections.ts';
export { checkSenderForConnections, requireSenderIdentity, senderIdentity } from './sender.ts';
export { connectionView } from './views.ts';
