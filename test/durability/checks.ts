import type { EntityManager } from '@mikro-orm/postgresql';
import type { Hit } from '../support/https-receiver.ts';
import type { Checkout, Submission } from './actors.ts';
import { packageViolations, type StorePackages } from './sftp-stores.ts';

/** What one trial's accounts did, as the clients saw it. */
export interface TrialRecord {
  accountIds: string[];
  submissions: Submission[];
  checkouts: Checkout[];
  /** Per account: the cursors its resuming subscriber received, in order. */
  received: Map<string, number[]>;
  /** What the SFTP stores received, when the campaign connected any. */
  stores?: StorePackages;
}

type Query = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

const queryOn =
  (em: EntityManager): Query =>
  (sql, params = []) =>
    em.fork().execute(sql, params);

/** Every accepted submission debited exactly once, every debit paying for its release. */
async function submissions(q: Query, trial: TrialRecord): Promise<string[]> {
  const violations: string[] = [];
  const releases = await q<{ id: string; credits_spent: number }>(
    `select id, credits_spent from releases where account_id in (?) and status <> 'draft'`,
    [trial.accountIds],
  );
  const debits = await q<{ ref: string | null; amount: number }>(
    `select ref, amount from credit_transactions where account_id in (?) and type = 'debit'`,
    [trial.accountIds],
  );
  const spent = new Map(releases.map((r) => [`release:${r.id}`, r.credits_spent]));
  const debitsByRef = new Map<string, number[]>();
  for (const debit of debits) {
    const list = debitsByRef.get(debit.ref ?? '') ?? [];
    list.push(-debit.amount);
    debitsByRef.set(debit.ref ?? '', list);
  }
  for (const [ref, amounts] of debitsByRef) {
    if (!spent.has(ref)) violations.push(`debit ${ref} has no submitted release`);
    else if (amounts.length !== 1) violations.push(`${ref} debited ${amounts.length} times`);
    else if (amounts[0] !== spent.get(ref))
      violations.push(`${ref} debited ${amounts[0]}, spent ${spent.get(ref)}`);
  }
  for (const ref of spent.keys())
    if (!debitsByRef.has(ref)) violations.push(`${ref} submitted without a debit`);
  const accepted = trial.submissions.filter((s) => s.outcome === 'accepted');
  for (const s of trial.submissions.filter((x) => x.outcome === 'unknown'))
    violations.push(`submission ${s.key} never answered after ${s.attempts} attempts`);
  for (const s of accepted) {
    const ids = new Set(s.releaseIds);
    if (ids.size !== 1) violations.push(`key ${s.key} answered with ${ids.size} different releases`);
    for (const id of ids)
      if (!spent.has(`release:${id}`)) violations.push(`key ${s.key}: release ${id} missing`);
  }
  if (releases.length !== accepted.length)
    violations.push(`${releases.length} releases submitted for ${accepted.length} accepted keys`);
  return violations;
}

/** Every paid checkout credited exactly once; nothing credited that was not paid; reloads once each. */
async function payments(q: Query, trial: TrialRecord): Promise<string[]> {
  const violations: string[] = [];
  const entries = await q<{ ref: string; amount: number; type: string }>(
    `select ref, amount, type from credit_transactions
      where account_id in (?) and type in ('purchase', 'auto_reload')`,
    [trial.accountIds],
  );
  const byRef = new Map<string, number[]>();
  for (const e of entries) byRef.set(e.ref, [...(byRef.get(e.ref) ?? []), e.amount]);
  for (const c of trial.checkouts) {
    const ref = `checkout:${c.sessionId}`;
    const credited = byRef.get(ref) ?? [];
    if (c.outcome !== 'paid') violations.push(`checkout ${c.sessionId} never answered as paid`);
    else if (credited.length !== 1) violations.push(`paid ${ref} credited ${credited.length} times`);
    else if (credited[0] !== c.credits)
      violations.push(`${ref} credited ${credited[0]}, bought ${c.credits}`);
  }
  const paid = new Set(trial.checkouts.map((c) => `checkout:${c.sessionId}`));
  const payments = await q<{ reference: string; credits: number }>(
    'select reference, credits from payments where account_id in (?)',
    [trial.accountIds],
  );
  const paymentOf = new Map(payments.map((p) => [p.reference, p.credits]));
  for (const [ref, amounts] of byRef) {
    if (ref.startsWith('checkout:') && !paid.has(ref)) violations.push(`${ref} credited but never paid`);
    if (amounts.length !== 1) violations.push(`${ref} has ${amounts.length} ledger entries`);
    if (paymentOf.get(ref) !== amounts[0])
      violations.push(`${ref}: ledger ${amounts[0]}, payment ${paymentOf.get(ref)}`);
  }
  for (const ref of paymentOf.keys()) if (!byRef.has(ref)) violations.push(`payment ${ref} never credited`);
  return violations;
}

/** Each account's ledger, in `seq` order, adds up: every balance_after is the previous plus the amount. */
async function ledgerChains(q: Query, accountIds: string[]): Promise<string[]> {
  const violations: string[] = [];
  const rows = await q<{ account_id: string; amount: number; balance_after: number; seq: string }>(
    `select account_id, amount, balance_after, seq from credit_transactions
      where account_id in (?) order by account_id, seq`,
    [accountIds],
  );
  const balances = await q<{ id: string; credit_balance: number }>(
    'select id, credit_balance from accounts where id in (?)',
    [accountIds],
  );
  const last = new Map<string, number>();
  for (const row of rows) {
    const expected = (last.get(row.account_id) ?? 0) + row.amount;
    if (row.balance_after !== expected || row.balance_after < 0)
      violations.push(
        `ledger of ${row.account_id} breaks at seq ${row.seq}: ${row.balance_after} ≠ ${expected}`,
      );
    last.set(row.account_id, row.balance_after);
  }
  for (const account of balances)
    if ((last.get(account.id) ?? 0) !== account.credit_balance)
      violations.push(
        `account ${account.id} balance ${account.credit_balance} ≠ ledger ${last.get(account.id)}`,
      );
  return violations;
}

/**
 * Every outbox event published once (a cursor), in order (publication time never goes back along the
 * cursors); every release walked its stores to the end: distributed, each aggregate move and the
 * approval exactly once, and one complete package taken by each SFTP store.
 */
async function eventsAndDelivery(q: Query, trial: TrialRecord): Promise<string[]> {
  const violations: string[] = [];
  const [unpublished] = await q<{ n: string }>(
    'select count(*) as n from outbox_events where cursor is null and account_id in (?)',
    [trial.accountIds],
  );
  if (Number(unpublished?.n) > 0) violations.push(`${unpublished?.n} outbox events never published`);
  const [backwards] = await q<{ n: string }>(
    `select count(*) as n from (
       select published_at < lag(published_at) over (order by cursor) as back
         from outbox_events where cursor is not null) s where back`,
  );
  if (Number(backwards?.n) > 0) violations.push(`${backwards?.n} events published out of cursor order`);
  const releases = await q<{ id: string; upc: string | null; aggregate_status: string | null }>(
    `select id, upc, aggregate_status from releases where account_id in (?) and status <> 'draft'`,
    [trial.accountIds],
  );
  if (trial.stores) violations.push(...packageViolations(releases, trial.stores));
  const events = await q<{ release_id: string; type: string; payload: Record<string, unknown> }>(
    `select release_id, type, payload from outbox_events where account_id in (?) order by cursor`,
    [trial.accountIds],
  );
  for (const release of releases) {
    if (release.aggregate_status !== 'distributed') {
      const stores = await q<{
        store_id: number;
        status: string;
        status_text: string;
        next_step_at: Date | null;
      }>(
        'select store_id, status, status_text, next_step_at from deliveries where release_id = ? order by store_id',
        [release.id],
      );
      const where = stores.map(
        (d) => `${d.store_id} ${d.status} "${d.status_text}" next ${d.next_step_at ?? 'none'}`,
      );
      const jobs = await q<{ name: string; key: string; state: string; retries: number; output: unknown }>(
        `select name, singleton_key as key, state, retry_count as retries, output from pgboss.job
          where data->>'releaseId' = ? order by created_on`,
        [release.id],
      );
      const work = jobs.map((j) => `${j.name} ${j.key} ${j.state}#${j.retries} ${JSON.stringify(j.output)}`);
      violations.push(
        `release ${release.id} stopped at ${release.aggregate_status}: ${where.join('; ')}; jobs: ${work.join('; ')}`,
      );
    }
    const own = events.filter((e) => e.release_id === release.id);
    const moves = own
      .filter((e) => e.type === 'release.status_changed')
      .map((e) => `${e.payload.previousStatus}→${e.payload.status}`)
      .join(', ');
    if (moves !== 'queued→pending, pending→delivered, delivered→distributed')
      violations.push(`release ${release.id} moved ${moves}`);
    const approvals = own.filter((e) => e.type === 'release.approved').length;
    if (approvals !== 1) violations.push(`release ${release.id} approved ${approvals} times`);
  }
  return violations;
}

/** Resuming subscribers got every event of their account exactly once, in cursor order. */
async function subscriptions(q: Query, trial: TrialRecord): Promise<string[]> {
  const violations: string[] = [];
  for (const accountId of trial.accountIds) {
    const rows = await q<{ cursor: string }>(
      'select cursor from outbox_events where account_id = ? and cursor is not null order by cursor',
      [accountId],
    );
    const expected = rows.map((r) => Number(r.cursor)).join(',');
    const got = (trial.received.get(accountId) ?? []).join(',');
    if (got !== expected) violations.push(`subscriber of ${accountId} got [${got}], outbox [${expected}]`);
  }
  return violations;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  status: string;
  release_id: string | null;
  payload_hash: string;
  created_at: Date;
  delivered_at: Date | null;
  next_attempt_at: Date | null;
}

/**
 * Webhooks: one delivery per (endpoint, event) of the accounts; each sent one received at least once;
 * a suppressed one only when an identical event reached the endpoint before, and no identical event
 * sent twice past the rule. `final` also requires every delivery to be settled (no claim left leased).
 */
async function webhooks(q: Query, accountIds: string[], hits: Hit[], final: boolean): Promise<string[]> {
  const violations: string[] = [];
  const [missing] = await q<{ n: string }>(
    `select count(*) as n from outbox_events o join webhook_endpoints e on e.account_id = o.account_id
      where o.account_id in (?) and o.created_at > e.created_at
        and not exists (select 1 from webhook_deliveries d where d.endpoint_id = e.id and d.event_id = o.id)`,
    [accountIds],
  );
  if (Number(missing?.n) > 0) violations.push(`${missing?.n} (endpoint, event) pairs without a delivery`);
  const rows = await q<DeliveryRow>(
    `select d.id, d.endpoint_id, d.event_id, d.status, d.release_id, d.payload_hash, d.created_at,
            d.delivered_at, d.next_attempt_at
       from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
      where e.account_id in (?)`,
    [accountIds],
  );
  const received = new Set(hits.map((h) => String(h.headers['x-svc-delivery'])));
  const identical = (a: DeliveryRow, b: DeliveryRow) =>
    a.id !== b.id &&
    a.endpoint_id === b.endpoint_id &&
    a.release_id === b.release_id &&
    a.payload_hash === b.payload_hash;
  for (const row of rows) {
    if (row.status === 'pending') {
      if (final) violations.push(`delivery ${row.id} still pending`);
      continue;
    }
    if (row.status === 'failed') violations.push(`delivery ${row.id} failed`);
    const earlier = rows.filter(
      (o) => identical(o, row) && o.status === 'succeeded' && o.delivered_at! <= row.created_at,
    );
    if (row.status === 'suppressed' && earlier.length === 0)
      violations.push(`delivery ${row.id} suppressed with no identical event delivered before`);
    if (row.status === 'succeeded') {
      if (!received.has(row.id)) violations.push(`delivery ${row.id} succeeded but never received`);
      if (earlier.length > 0) violations.push(`delivery ${row.id} sent an identical event again`);
    }
  }
  return violations;
}

/** Everything a trial asserts, once it has settled (webhook claims still leased are left for `final`). */
export async function checkTrial(em: EntityManager, trial: TrialRecord, hits: Hit[]): Promise<string[]> {
  const q = queryOn(em);
  return [
    ...(await submissions(q, trial)),
    ...(await payments(q, trial)),
    ...(await ledgerChains(q, trial.accountIds)),
    ...(await eventsAndDelivery(q, trial)),
    ...(await subscriptions(q, trial)),
    ...(await webhooks(q, trial.accountIds, hits, false)),
  ];
}

/** At the end of the campaign: every delivery settled and received, every reload finished, ledgers whole. */
export async function checkFinal(em: EntityManager, accountIds: string[], hits: Hit[]): Promise<string[]> {
  const q = queryOn(em);
  const [inFlight] = await q<{ n: string }>(
    'select count(*) as n from auto_reload_settings where account_id in (?) and in_flight_since is not null',
    [accountIds],
  );
  return [
    ...(Number(inFlight?.n) > 0 ? [`${inFlight?.n} auto-reloads never finished`] : []),
    ...(await ledgerChains(q, accountIds)),
    ...(await webhooks(q, accountIds, hits, true)),
  ];
}

/** Until everything but a leased webhook claim or a running reload has settled for the trial. */
export async function trialSettled(em: EntityManager, trial: TrialRecord): Promise<boolean> {
  const q = queryOn(em);
  const [row] = await q<{ moving: string; unpublished: string; due: string }>(
    `select
       (select count(*) from releases where account_id in (?) and status <> 'draft'
           and aggregate_status is distinct from 'distributed') as moving,
       (select count(*) from outbox_events where account_id in (?) and cursor is null) as unpublished,
       (select count(*) from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
         where e.account_id in (?) and d.status = 'pending' and d.next_attempt_at < now() + interval '5 seconds') as due`,
    [trial.accountIds, trial.accountIds, trial.accountIds],
  );
  if (Number(row?.moving) + Number(row?.unpublished) + Number(row?.due) > 0) return false;
  const cursors = await q<{ account_id: string; last: string }>(
    'select account_id, max(cursor) as last from outbox_events where account_id in (?) group by account_id',
    [trial.accountIds],
  );
  const [dispatched] = await q<{ cursor: string | null }>(
    'select max(cursor) as cursor from webhook_dispatch_cursor',
  );
  return cursors.every(
    (c) =>
      (trial.received.get(c.account_id) ?? []).at(-1) === Number(c.last) &&
      Number(dispatched?.cursor ?? 0) >= Number(c.last),
  );
}

/** Until no webhook delivery is pending and no reload in flight, for the whole campaign. */
export async function campaignSettled(em: EntityManager, accountIds: string[]): Promise<boolean> {
  const [row] = await queryOn(em)<{ n: string }>(
    `select (select count(*) from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
              where e.account_id in (?) and d.status = 'pending')
          + (select count(*) from auto_reload_settings where account_id in (?) and in_flight_since is not null) as n`,
    [accountIds, accountIds],
  );
  return Number(row?.n) === 0;
}
