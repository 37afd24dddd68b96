import { findStore } from '../../../catalog/index.ts';
import type { DeliveryStatus } from '../../delivery.entity.ts';
import { messageFor } from '../../release-content.ts';
import type { ReportedStatus, StepOutcome, StoreAdapter } from '../../store-adapter.ts';
import { type StoreAdapters, storeAdapters } from '../../store-adapters.ts';
import { secondsAfter } from '../../transaction.ts';
import { GLOBAL_CONTROL_ID, instructionFor, readControl } from './sandbox-control.ts';

export interface SandboxOptions {
  /** Seconds per store step (SANDBOX_STEP_SECONDS). */
  stepSeconds: number;
}

const FORWARD: Partial<Record<DeliveryStatus, ReportedStatus>> = {
  queued: 'in_inspection',
  in_inspection: 'delivered',
  delivered: 'live',
};

/** While the sandbox is offline a release is looked at again this often (at most; the step if shorter). */
const OFFLINE_RETRY_SECONDS = 5;

/** Where the sandbox says a live release can be found in a store. */
export function sandboxStoreUrl(storeId: number, releaseId: string): string {
  const alias = findStore(storeId)?.aliases[0] ?? `store-${storeId}`;
  return `https://${alias}.sandbox.example/release/${releaseId}`;
}

/** The adapters `createSandboxAdapter` made: a name can be borrowed, membership here cannot. */
const sandboxAdapters = new WeakSet<StoreAdapter>();

/**
 * The sandbox: a store that behaves like a real one on its own clock. Each step moves a store one
 * status on (queued → in inspection → delivered → live, or a takedown to confirmed), one step every
 * `stepSeconds`; a store leaving `queued` is sent the release's ERN message, kept on its row. It
 * rejects or fails a store when told to (`instructSandbox`) and goes offline when switched
 * (`setSandboxOffline`): nothing of it moves then, and status reads fall back.
 */
export function createSandboxAdapter(options: SandboxOptions): StoreAdapter {
  const { stepSeconds } = options;
  const adapter: StoreAdapter = {
    name: 'sandbox',
    firstStepAt: (now) => secondsAfter(now, stepSeconds),
    outage: {
      query: {
        sql: "select coalesce(offline_reason, 'unreachable') from sandbox_controls where id = ? and offline",
        params: [GLOBAL_CONTROL_ID],
      },
      retryAfterSeconds: Math.min(stepSeconds, OFFLINE_RETRY_SECONDS),
    },
    async step({ em, release, now, content }, due) {
      const control = await readControl(em);
      const outcomes: StepOutcome[] = [];
      for (const delivery of due) {
        const from: DeliveryStatus = delivery.status;
        const forward = FORWARD[from];
        if (!forward) {
          outcomes.push(
            from === 'takedown_requested' ? { status: 'taken_down', nextStepAt: null } : { nextStepAt: null },
          );
          continue;
        }
        const instruction = instructionFor(control, release.id, delivery.storeId);
        const to: ReportedStatus =
          instruction?.action === 'reject' ? 'rejected' : instruction?.action === 'fail' ? 'failed' : forward;
        outcomes.push({
          status: to,
          ...(instruction?.reason ? { reason: instruction.reason } : {}),
          ...(to === 'live' ? { urlInStore: sandboxStoreUrl(delivery.storeId, release.id) } : {}),
          // A store leaving `queued` is sent the release, even one that then rejects it.
          ...(from === 'queued'
            ? { sentMessage: messageFor(await content(), delivery.storeId, delivery.ugcPolicy ?? null, now) }
            : {}),
          nextStepAt: to === 'in_inspection' || to === 'delivered' ? secondsAfter(now, stepSeconds) : null,
        });
      }
      return outcomes;
    },
  };
  sandboxAdapters.add(adapter);
  return adapter;
}

/** Whether every store is delivered by the sandbox: no store of this deployment is a real one. */
export const everyStoreOnTheSandbox = (adapters: StoreAdapters): boolean =>
  adapters.all.every((adapter) => sandboxAdapters.has(adapter));

/** Every store on the sandbox: the composition's choice until stores are connected. */
export const sandboxOnly = (options: SandboxOptions) => storeAdapters(createSandboxAdapter(options));
