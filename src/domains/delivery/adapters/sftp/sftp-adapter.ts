import type { EntityManager } from '@mikro-orm/postgresql';
import { StoreConnection } from '../../../store-connections/index.ts';
import type { Delivery } from '../../delivery.entity.ts';
import type { ReleaseContent } from '../../release-content.ts';
import { storeNameOf } from '../../status-text.ts';
import type { StepOutcome, StoreAdapter } from '../../store-adapter.ts';
import { secondsAfter } from '../../transaction.ts';
import { FILE_OK } from './acknowledgement.ts';
import type { SftpAdapterOptions } from './options.ts';
import { buildPackage, packageIdOf } from './package-builder.ts';
import { type PackageKind, SftpPackage } from './sftp-package.entity.ts';
import { runPackageWork } from './work.ts';

/** A work job that never reports back is looked at again after this long (the step's watchdog). */
const WORK_WATCHDOG_SECONDS = 600;
/** `deliveries.status_text` holds 300 characters. */
const STATUS_TEXT_MAX = 300;

const AWAITING = 'Awaiting acknowledgement';
/** How much of a store's `ErrorText` a failure's reason keeps. */
const ERROR_TEXT_MAX = 1000;

function clip(text: string): string {
  return text.length <= STATUS_TEXT_MAX ? text : `${text.slice(0, STATUS_TEXT_MAX - 1)}…`;
}

function kindOf(delivery: Readonly<Delivery>): PackageKind | null {
  if (delivery.status === 'takedown_requested') return 'takedown';
  if (delivery.status === 'queued' || delivery.status === 'in_inspection') return 'release';
  return null;
}

function failed(reason: string): StepOutcome {
  return { status: 'failed', reason, statusText: clip(`Delivery failed: ${reason}`), nextStepAt: null };
}

/** The package's last outcome: it is closed with it, so a store queued again starts a new package. */
function closing(pkg: SftpPackage, now: Date, outcome: StepOutcome): StepOutcome {
  pkg.closedAt = now;
  return outcome;
}

/**
 * DDEX over SFTP, for the stores an operator connected (`store_connections`). A store's first step
 * fixes its package (`sftp_packages`) and asks for work; the work uploads it (resources, then the
 * ERN message, then with `batch` choreography the batch-complete marker), then polls for the store's
 * `ACK_<message>.xml`; each step reads what the work recorded and says where the store stands.
 */
export function createSftpAdapter(options: SftpAdapterOptions): StoreAdapter {
  const { settings } = options;

  async function stepOne(
    em: EntityManager,
    delivery: Readonly<Delivery>,
    now: Date,
    content: () => Promise<ReleaseContent>,
  ): Promise<StepOutcome> {
    // An acknowledged release: the store took it in; it is live there.
    if (delivery.status === 'delivered') return { status: 'live', nextStepAt: null };
    const kind = kindOf(delivery);
    if (!kind) return { nextStepAt: null };
    let pkg = await em.findOne(SftpPackage, { id: packageIdOf(delivery, kind) }, { refresh: true });
    const resendAsked = pkg?.ackStatus != null && pkg.ackResend && pkg.resends < settings.maxAttempts;
    if (!pkg || pkg.closedAt != null || resendAsked) {
      const connection = await em.findOne(StoreConnection, { storeId: delivery.storeId });
      if (!connection) {
        return failed(`${storeNameOf(delivery.storeId)} is no longer connected over SFTP.`);
      }
      const resends = resendAsked ? pkg!.resends + 1 : 0;
      pkg = buildPackage(em, pkg, delivery, kind, await content(), connection, options.sender, now, resends);
    }
    const sent = delivery.status === 'queued' && pkg.uploadedAt ? { sentMessage: pkg.message } : {};
    const moved = delivery.status === 'queued' && pkg.uploadedAt ? { status: 'in_inspection' as const } : {};
    if (pkg.ackStatus != null) {
      if (pkg.ackStatus === FILE_OK) {
        return kind === 'takedown'
          ? closing(pkg, now, { status: 'taken_down', nextStepAt: null })
          : closing(pkg, now, { ...moved, ...sent, status: 'delivered', nextStepAt: now });
      }
      // The store's own words, bounded: they go into the row, the job's errors and the events.
      const words = pkg.ackText ? `: ${pkg.ackText.slice(0, ERROR_TEXT_MAX)}` : '';
      const said = `The store answered ${pkg.ackStatus}${words}`;
      return closing(
        pkg,
        now,
        failed(pkg.ackResend ? `${said} (after ${pkg.resends} re-sends).` : `${said}.`),
      );
    }
    if (pkg.attempts >= settings.maxAttempts) {
      const reason = `Store unreachable after ${pkg.attempts} attempts: ${pkg.lastError ?? 'no reason given'}`;
      return closing(pkg, now, failed(reason));
    }
    const delayed =
      pkg.attempts > 0 ? clip(`Delivery delayed (attempt ${pkg.attempts}): ${pkg.lastError}`) : null;
    const waiting = pkg.uploadedAt ? awaitingText(pkg, now) : 'Uploading';
    const statusText = delayed ?? waiting;
    if (now < pkg.nextWorkAt) return { ...moved, ...sent, statusText, nextStepAt: pkg.nextWorkAt };
    return {
      ...moved,
      ...sent,
      statusText,
      work: true,
      nextStepAt: secondsAfter(now, WORK_WATCHDOG_SECONDS),
    };
  }

  function awaitingText(pkg: SftpPackage, now: Date): string {
    const waited = (now.getTime() - pkg.uploadedAt!.getTime()) / 1000;
    return waited > settings.ackWindowSeconds
      ? `${AWAITING}: none since ${pkg.uploadedAt!.toISOString()}`
      : AWAITING;
  }

  return {
    name: 'sftp',
    firstStepAt: (now) => now,
    async step({ em, now, content }, due) {
      const outcomes: StepOutcome[] = [];
      for (const delivery of due) outcomes.push(await stepOne(em, delivery, now, content));
      return outcomes;
    },
    async work(context) {
      const kind = kindOf(context.delivery);
      if (kind) await runPackageWork(context, packageIdOf(context.delivery, kind), options);
    },
  };
}
