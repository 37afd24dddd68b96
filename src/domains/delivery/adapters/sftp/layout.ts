import type { Choreography } from '../../../store-connections/index.ts';
import type { PackageFile } from '../../release-content.ts';
import type { PackagedFile } from './sftp-package.entity.ts';

/** Where one package lands under the connection's root, per the store's choreography. */
export interface PackageLayout {
  batchId: string;
  /** The message's directory: its `resources/` sit beside it, as the message's `File/URI`s say. */
  directory: string;
  messageFile: string;
  /** Written last, in the batch directory, with `batch` choreography. */
  batchComplete: string | null;
}

/** `YYYYMMDDhhmmssnnn` in UTC: the choreography's batch identifier, and its directory's name. */
export function batchIdOf(at: Date): string {
  return at.toISOString().replace(/[-:TZ.]/g, '');
}

/**
 * `release` (one release per batch, no manifest): `<batchId>/<UPC>.xml` and `<batchId>/resources/…`.
 * `batch`: `<batchId>/<UPC>/<UPC>.xml`, `<batchId>/<UPC>/resources/…`, then
 * `<batchId>/BatchComplete_<batchId>.xml` once everything else is complete.
 */
export function packageLayout(choreography: Choreography, upc: string, at: Date): PackageLayout {
  const batchId = batchIdOf(at);
  return {
    batchId,
    directory: choreography === 'batch' ? `${batchId}/${upc}` : batchId,
    messageFile: `${upc}.xml`,
    batchComplete: choreography === 'batch' ? `${batchId}/BatchComplete_${batchId}.xml` : null,
  };
}

export function packagedFiles(layout: PackageLayout, files: readonly PackageFile[]): PackagedFile[] {
  return files.map((file) => ({
    path: `${layout.directory}/${file.path}`,
    storageKey: file.storageKey,
    sha256: file.sha256,
    size: file.size,
  }));
}

/** The store's acknowledgement of a message file: `ACK_<message file>` beside it. */
export function acknowledgementPath(directory: string, messageFile: string): string {
  return `${directory}/ACK_${messageFile}`;
}

/** The manifest that tells a `batch` store the batch is complete, listing the batch's messages. */
export function batchCompleteManifest(batchId: string, messagePaths: readonly string[], at: Date): string {
  const messages = messagePaths.map((path) => `  <Message><URL>${path}</URL></Message>`).join('\n');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<BatchComplete BatchId="${batchId}" CreatedDateTime="${at.toISOString()}">\n${messages}\n</BatchComplete>\n`
  );
}
