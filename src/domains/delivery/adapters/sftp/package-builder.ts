import type { EntityManager } from '@mikro-orm/postgresql';
import { assignUpc } from '../../../releases/index.ts';
import type { SenderIdentity, StoreConnection } from '../../../store-connections/index.ts';
import type { Delivery } from '../../delivery.entity.ts';
import { messageFor, type ReleaseContent, takedownMessageFor } from '../../release-content.ts';
import { packagedFiles, packageLayout } from './layout.ts';
import { type PackageKind, SftpPackage } from './sftp-package.entity.ts';

export function packageIdOf(delivery: Readonly<Delivery>, kind: PackageKind): string {
  return `${delivery.id}:${kind}`;
}

/**
 * Fixes a package in the step's transaction: its directory (a new batch), its files and its message
 * (the configured sender, the connection's recipient, `LiveMessage`), so every attempt sends the same
 * bytes. A takedown repeats the release with its deals ending, and sends no resources again. An
 * earlier package of the delivery (`previous`, closed or answered with a re-send) is replaced in place.
 */
export function buildPackage(
  em: EntityManager,
  previous: SftpPackage | null,
  delivery: Readonly<Delivery>,
  kind: PackageKind,
  content: ReleaseContent,
  connection: StoreConnection,
  sender: SenderIdentity,
  now: Date,
  resends: number,
): SftpPackage {
  const upc = content.release.upc ?? assignUpc(content.release.id);
  const layout = packageLayout(connection.choreography, upc, now);
  const header = {
    sender,
    recipient: { dpid: connection.recipientDpid, name: connection.recipientName },
    live: true,
  };
  const build = kind === 'takedown' ? takedownMessageFor : messageFor;
  const message = build(content, delivery.storeId, delivery.ugcPolicy ?? null, now, header);
  const values = {
    deliveryId: delivery.id,
    kind,
    batchId: layout.batchId,
    directory: layout.directory,
    messageFile: layout.messageFile,
    message,
    batchComplete: layout.batchComplete !== null,
    files: kind === 'takedown' ? [] : packagedFiles(layout, content.files),
    completed: [],
    attempts: 0,
    resends,
    lastError: null,
    nextWorkAt: now,
    uploadedAt: null,
    ackStatus: null,
    ackText: null,
    ackResend: false,
    closedAt: null,
  };
  if (previous) return em.assign(previous, values);
  return em.create(SftpPackage, { id: packageIdOf(delivery, kind), ...values });
}
