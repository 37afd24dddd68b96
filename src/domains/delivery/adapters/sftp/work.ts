import { createHash } from 'node:crypto';
import path from 'node:path';
import { openSftp, SftpError, type SftpSession } from '../../../../platform/sftp/index.ts';
import { StoreConnection, sftpTargetOf } from '../../../store-connections/index.ts';
import type { WorkContext } from '../../store-adapter.ts';
import { secondsAfter } from '../../transaction.ts';
import { AcknowledgementShapeError, parseAcknowledgement } from './acknowledgement.ts';
import { acknowledgementPath, batchCompleteManifest } from './layout.ts';
import type { SftpAdapterOptions } from './options.ts';
import { backoffSeconds } from './settings.ts';
import { SftpPackage } from './sftp-package.entity.ts';

/** What the store's server holds is not what was stored: never left under its final name. */
class IntegrityError extends Error {}

/**
 * How much of a resource one read from storage takes. The local driver's default 64 KiB reads cost the
 * upload about half as much CPU again per byte as 1 MiB ones (`npm run bench -- sftp-delivery`); the
 * session cuts each chunk into writes of its own size, so what goes on the wire is the same.
 */
const STORAGE_READ_BYTES = 1024 * 1024;

const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * One run of a package's work: uploads what the package still misses, or, once it is all there, looks
 * for the store's acknowledgement. Each file is recorded as soon as it has its final name; a failure
 * (the connection, the server, a file that does not hash to what the message says) is recorded as an
 * attempt, with its retry time, and reported by the next step; anything else throws (the queue retries).
 */
export async function runPackageWork(
  { em, now, signal, delivery }: WorkContext,
  packageId: string,
  options: SftpAdapterOptions,
): Promise<void> {
  const pkg = await em.findOne(SftpPackage, { id: packageId }, { refresh: true });
  if (!pkg || pkg.ackStatus != null || pkg.closedAt != null) return;
  const connection = await em.findOne(
    StoreConnection,
    { storeId: delivery.storeId },
    { populate: ['secretSealed'], refresh: true },
  );
  let session: SftpSession | undefined;
  try {
    if (!connection) throw new SftpError('not_found', 'the store is no longer connected over SFTP');
    session = await openSftp(sftpTargetOf(connection, options.secretKey), options.timeouts);
    if (pkg.uploadedAt) await poll(session, pkg, now, options);
    else await upload(session, pkg, options, signal, async () => em.flush());
    pkg.attempts = 0;
    pkg.lastError = null;
  } catch (error) {
    if (
      !(
        error instanceof SftpError ||
        error instanceof IntegrityError ||
        error instanceof AcknowledgementShapeError
      )
    ) {
      throw error;
    }
    pkg.attempts += 1;
    pkg.lastError = error.message;
    pkg.nextWorkAt = secondsAfter(new Date(), backoffSeconds(options.settings, pkg.attempts));
  } finally {
    await session?.close().catch(() => undefined);
  }
  await em.flush();
}

async function upload(
  session: SftpSession,
  pkg: SftpPackage,
  { storage, settings }: SftpAdapterOptions,
  signal: AbortSignal,
  record: () => Promise<void>,
): Promise<void> {
  const directories = new Set([pkg.directory, ...pkg.files.map((file) => path.posix.dirname(file.path))]);
  for (const directory of directories) await session.mkdirp(directory);
  // Each resource is recorded once it has its final name. The record (a commit) runs while the next
  // resource is sent, one record at a time: the ORM takes the row's snapshot when its UPDATE returns, so
  // the row may change only between flushes.
  let recording: Promise<void> = Promise.resolve();
  let recordFailed = false;
  const recordLater = (done: string) => {
    recording = recording.then(async () => {
      pkg.completed = [...pkg.completed, done];
      await record();
    });
    recording.catch(() => {
      recordFailed = true; // thrown below, by the `await recording` that ends the resources
    });
  };
  try {
    // Resources first: the message names them, so the store must find them all when it reads it.
    for (const file of pkg.files) {
      if (signal.aborted) return;
      if (recordFailed) break;
      if (pkg.completed.includes(file.path)) continue;
      // A file renamed into place by an attempt that died before recording it: complete already.
      if ((await session.size(file.path)) !== file.size) {
        const sent = await session.upload(
          file.path,
          await storage.get(file.storageKey, { chunkBytes: STORAGE_READ_BYTES }),
        );
        if (sent.sha256 !== file.sha256 || sent.bytes !== file.size) {
          await session.delete(file.path).catch(() => undefined);
          throw new IntegrityError(
            `${file.path} read from storage hashes to ${sent.sha256} (${sent.bytes} bytes), not the message's ${file.sha256} (${file.size} bytes)`,
          );
        }
      }
      recordLater(file.path);
    }
  } finally {
    // Whatever happened to the files after it, a file already in place is recorded before this returns.
    await recording;
  }
  const messagePath = `${pkg.directory}/${pkg.messageFile}`;
  if (!pkg.completed.includes(messagePath)) {
    const sent = await session.upload(messagePath, [pkg.message]);
    if (sent.sha256 !== sha256Of(pkg.message)) throw new IntegrityError(`${messagePath} was not sent whole`);
    pkg.completed = [...pkg.completed, messagePath];
    await record();
  }
  if (pkg.batchComplete) {
    const marker = `${pkg.batchId}/BatchComplete_${pkg.batchId}.xml`;
    if (!pkg.completed.includes(marker)) {
      await session.upload(marker, [batchCompleteManifest(pkg.batchId, [messagePath], new Date())]);
      pkg.completed = [...pkg.completed, marker];
    }
  }
  pkg.uploadedAt = new Date();
  pkg.nextWorkAt = secondsAfter(pkg.uploadedAt, settings.ackPollSeconds);
}

async function poll(session: SftpSession, pkg: SftpPackage, now: Date, { settings }: SftpAdapterOptions) {
  const ackPath = acknowledgementPath(pkg.directory, pkg.messageFile);
  if (!(await session.stat(ackPath))) {
    const waited = (now.getTime() - pkg.uploadedAt!.getTime()) / 1000;
    const every = waited > settings.ackWindowSeconds ? settings.ackWindowSeconds : settings.ackPollSeconds;
    pkg.nextWorkAt = secondsAfter(now, every);
    return;
  }
  const ack = parseAcknowledgement((await session.readFile(ackPath)).toString('utf8'));
  pkg.ackStatus = ack.fileStatus.slice(0, 100);
  pkg.ackText = ack.errorText;
  pkg.ackResend = ack.resend;
  pkg.nextWorkAt = now;
}
