import type { SftpTimeouts } from '../../../../platform/sftp/index.ts';
import type { ObjectStorage } from '../../../../platform/storage/object-storage.ts';
import type { SenderIdentity } from '../../../store-connections/index.ts';
import type { SftpDeliverySettings } from './settings.ts';

/** What the SFTP adapter and the package work it runs are given. */
export interface SftpAdapterOptions {
  storage: ObjectStorage;
  /** The secret-box key that unseals the connections' credentials. */
  secretKey: Uint8Array;
  sender: SenderIdentity;
  settings: SftpDeliverySettings;
  timeouts?: SftpTimeouts;
}
