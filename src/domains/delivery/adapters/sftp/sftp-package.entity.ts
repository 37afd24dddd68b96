import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../../../platform/db/columns.ts';

/** A file of a package as the message names it: where it goes, where it is stored, what it must hash to. */
export interface PackagedFile {
  /** Relative to the package's directory on the store's server. */
  path: string;
  storageKey: string;
  sha256: string;
  size: number;
}

export const PACKAGE_KINDS = ['release', 'takedown'] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];

/**
 * One DDEX package sent to a connected store over SFTP, and how far it got: built by a step (its
 * directory, files and message fixed then, so every attempt sends the same bytes), uploaded file by
 * file by work (each recorded once renamed into place on the server), then acknowledged by the store.
 * One row per delivery and kind; a store queued again after its package ended gets a fresh one.
 */
export const SftpPackage = defineEntity({
  name: 'SftpPackage',
  tableName: 'sftp_packages',
  properties: {
    /** `<deliveryId>:<kind>`. */
    id: p.string().length(60).primary(),
    deliveryId: p.uuid().index(),
    kind: p.enum(PACKAGE_KINDS),
    /** `YYYYMMDDhhmmssnnn` (UTC), the batch directory under the connection's root. */
    batchId: p.string().length(17),
    /** The ERN message's directory, relative to the root. */
    directory: p.text(),
    /** The ERN message's file name (`<UPC>.xml`), in `directory`. */
    messageFile: p.string().length(100),
    message: p.text(),
    /** With `batch` choreography, the batch's directory gets `BatchComplete_<batchId>.xml` last. */
    batchComplete: p.boolean(),
    files: p.json<PackagedFile[]>(),
    /** Paths of `files` (and the message, the marker) renamed into place on the server. */
    completed: p.json<string[]>(),
    /** Failed attempts (uploads or polls) in a row; reset by a success. */
    attempts: p.integer().default(0),
    /** Times the store asked for the package again (an error acknowledgement that needs no manual check). */
    resends: p.integer().default(0),
    lastError: p.text().nullable(),
    /** When work is next due (an upload retried, the next poll for the acknowledgement). */
    nextWorkAt: p.datetime(),
    uploadedAt: p.datetime().nullable(),
    /** The acknowledgement's `FileStatus` (`FileOK`, `ResourceCorrupt`, …) once read. */
    ackStatus: p.string().length(100).nullable(),
    ackText: p.text().nullable(),
    /** The acknowledgement says a re-send fixes it (`ManualCheckRequired` false). */
    ackResend: p.boolean().default(false),
    /** When a step ended the package (its store failed, or went live or taken down): a new queue starts over. */
    closedAt: p.datetime().nullable(),
    createdAt: columns.createdAt(),
    updatedAt: columns.updatedAt(),
  },
});

export type SftpPackage = InferEntity<typeof SftpPackage>;
