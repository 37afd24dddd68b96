import type { EntityManager } from '@mikro-orm/postgresql';
import type { Release } from '../releases/index.ts';
import type { Delivery, DeliveryStatus } from './delivery.entity.ts';
import type { ReleaseContent } from './release-content.ts';

/** The statuses a store reports; `queued` and `takedown_requested` are set by requests, never by a store. */
export type ReportedStatus = Exclude<DeliveryStatus, 'queued' | 'takedown_requested'>;

/**
 * What became of one store at its step. The core writes it to the store's row, records the move in the
 * release's job, recomputes the aggregate and emits the events, all in the step's transaction.
 */
export interface StepOutcome {
  /** The store's new status; omitted, it stays where it is (waiting, retrying, polling). */
  status?: ReportedStatus;
  /** The store's `statusText`; omitted, the status's own ("In inspection", "Rejected: <reason>", …). */
  statusText?: string;
  /** Why the store rejected or failed the release (with those statuses); a generic reason otherwise. */
  reason?: string;
  /** Where the release can be found in the store (with `live`). */
  urlInStore?: string;
  /** The DDEX message the store was sent at this step, kept on its delivery row. */
  sentMessage?: string;
  /**
   * When the store is stepped again; null, not until a request gives it something to do (a takedown).
   * With `work`, also its watchdog: a store whose work never reports back is stepped then.
   */
  nextStepAt: Date | null;
  /**
   * Runs the adapter's `work` for this store outside any transaction (a job of its own, sent with the
   * step), then steps the store again at once.
   */
  work?: boolean;
}

/** A step's view of its release, in the step's transaction (the release and its due stores locked). */
export interface StepContext {
  /** Everything written on it commits with the step, or not at all. */
  em: EntityManager;
  release: Release;
  now: Date;
  /** The release's tracks with their identifiers and durations, loaded once per step for every adapter. */
  content(): Promise<ReleaseContent>;
}

/** One store's slow work (uploads, downloads), outside any transaction and lock. */
export interface WorkContext {
  /** An EntityManager in no transaction: the adapter commits its progress as it goes. */
  em: EntityManager;
  delivery: Readonly<Delivery>;
  now: Date;
  /** Aborted when the work's claim is lost (its worker was taken for dead): stop; another run resumes. */
  signal: AbortSignal;
}

/**
 * A scalar SQL subquery (one text column, at most one row) that names why the adapter cannot be reached,
 * or yields no row or null while it can. The status read embeds it in its single statement.
 */
export interface OutageQuery {
  sql: string;
  params: readonly unknown[];
}

/**
 * How releases reach one kind of store: the sandbox for every store today, DDEX over SFTP for the
 * stores an operator connects. The delivery core owns the rows, the schedule, the job record, the
 * aggregate and the events; an adapter only says, when a store's step is due, what the store did.
 *
 * What an adapter guarantees:
 * - `step` is idempotent: it decides from what is recorded (the row, its own records) and may be
 *   called early, late or again; what it writes on the step's EntityManager commits with the step.
 * - Nothing slow or remote happens in `step`: it runs in a transaction holding the release's lock.
 *   It asks for `work` instead, which runs outside, records its progress in the adapter's own
 *   tables as it goes, and can be cut anywhere (a crash, a lost claim) and run again, redoing only
 *   what is missing; the next step reads what it recorded.
 * - A store that cannot be reached is not an error: `step` keeps it where it is with a `statusText`
 *   saying so and a `nextStepAt` that backs off; a store that gave up is `failed` with a `reason`.
 */
export interface StoreAdapter {
  /** Names the adapter in logs and errors. */
  readonly name: string;
  /** When a store just given something to do (queued, or asked for a takedown) takes its next step. */
  firstStepAt(now: Date): Date;
  /** Set when the adapter can be out as a whole: its stores wait, and status reads fall back. */
  readonly outage?: {
    query: OutageQuery;
    /** While out, its releases are looked at again this often. */
    retryAfterSeconds: number;
  };
  /** One outcome per due store of one release, in the order given. */
  step(context: StepContext, due: readonly Readonly<Delivery>[]): Promise<StepOutcome[]>;
  /** The slow part of a store's step, asked for by an outcome's `work`; a throw is retried with backoff. */
  work?(context: WorkContext): Promise<void>;
}
