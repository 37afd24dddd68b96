import { performance } from 'node:perf_hooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createSandboxPayments } from '../../src/domains/payments/sandbox-payments.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { startProcessWorld } from '../support/process-world.ts';
import { uploadAssets } from '../support/releases.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';
import { seeded } from '../support/synthetic-audio.ts';
import { waitFor } from '../support/wait.ts';
import { Buyer, Submitter } from './actors.ts';
import { campaignSettled, checkFinal, checkTrial, type TrialRecord, trialSettled } from './checks.ts';
import { startSftpStores } from './sftp-stores.ts';
import { ResumingSubscriber } from './subscriber.ts';

export interface CampaignOptions {
  trials: number;
  /** Seeds the choice of kill moments and of the load's mix (the same seed, the same campaign). */
  seed: number;
  /** No trial starts after this many minutes (the campaign stays bounded in time). */
  maxMinutes: number;
  /** The window after the load starts in which the kill falls, uniformly. */
  killWindowMs: number;
  /** The chance that a trial kills the restarted server a second time, while it recovers. */
  secondKillChance: number;
  /** Server processes (2: on a Redis of the campaign's own; each kill takes one, the other runs on). */
  processes: number;
  log: (line: string) => void;
}

export interface TrialResult {
  trial: number;
  killAtMs: number;
  /** SIGKILLs in the trial: one under load, sometimes a second one while the restarted server recovers. */
  kills: number;
  accepted: number;
  retried: number;
  paid: number;
  reloads: number;
  releases: number;
  events: number;
  resumes: number;
  violations: string[];
  seconds: number;
}

export interface CampaignReport {
  seed: number;
  processes: number;
  trials: TrialResult[];
  kills: number;
  /** What the end of the campaign found: leased webhook claims and reloads settled, ledgers whole. */
  final: string[];
  violations: number;
  seconds: number;
  webhookHits: number;
  /** Packages the SFTP stores received (each release once per store when nothing is violated). */
  storePackages: number;
}

/**
 * How long a trial may take to settle after its clients are done: an upload to an SFTP store that a
 * kill cut off waits for its job's heartbeat to lapse (about 20 s) before it resumes.
 */
const TRIAL_SETTLE_MS = 120_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Step = () => Promise<void>;

/**
 * A kill -9 campaign: one database, one https webhook receiver, and one or two real server processes
 * (two share a Redis of their own) that each trial loads with a mix (idempotent submissions, checkouts paid on the page or by payment events,
 * auto-reloads, store delivery (the sandbox, and two stores over SFTP to a real sshd), webhook fan-out, resuming graphql-ws subscribers), kills with
 * SIGKILL at a random moment, restarts, lets the clients retry, waits to settle and checks.
 */
export class Campaign {
  readonly #options: CampaignOptions;
  readonly #cleanup: Step[] = [];
  readonly #subscribers = new Set<ResumingSubscriber>();
  readonly #servers: ServerProcess[] = [];
  #closed = false;

  constructor(options: CampaignOptions) {
    this.#options = options;
  }

  async run(): Promise<CampaignReport> {
    const started = performance.now();
    const world = await startProcessWorld(this.#cleanup, 'campaign', 4);
    const secretKey = Buffer.from(world.env.WEBHOOK_SECRET_KEY, 'base64');
    const sftp = await startSftpStores(world.orm.em, secretKey);
    this.#cleanup.push(sftp.close);
    const env: Record<string, string> = { ...world.env, ...sftp.env, WEBHOOK_TIMEOUT_SECONDS: '5' };
    // Store 301 stays on the sandbox; the others are delivered over SFTP.
    const storeIds = [301, ...sftp.storeIds];
    // The campaign's database names its Redis namespace, so nothing else on that Redis reaches it.
    if (this.#options.processes > 1)
      env.REDIS_URL = process.env.CAMPAIGN_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const eventSecret = createSandboxPayments({
      publicUrl: 'http://127.0.0.1',
      secretKey,
    }).webhookSecret;
    for (let i = 0; i < this.#options.processes; i++) this.#servers.push(await startServerProcess(env));
    // Client n talks to process n (modulo their number), wherever it runs now.
    const urlOf = (n: number) => () => this.#servers[n % this.#servers.length]!.url;
    const url = urlOf(0);
    const restart = async (victim: number) => {
      await this.#servers[victim]!.kill9();
      this.#servers[victim] = await startServerProcess(env);
    };
    const random = seeded(this.#options.seed);
    const deadline = Date.now() + this.#options.maxMinutes * 60_000;
    const results: TrialResult[] = [];
    const accountIds: string[] = [];

    for (let trial = 1; trial <= this.#options.trials && Date.now() < deadline && !this.#closed; trial++) {
      const trialStarted = performance.now();
      const em = world.orm.em.fork();
      const spender = await accountWithToken(em, { credits: 14 });
      const buyer = await accountWithToken(em, { credits: 4 });
      const accounts = [spender, buyer];
      accountIds.push(...accounts.map((a) => a.accountId));
      for (const [n, account] of accounts.entries())
        for (const endpoint of [1, 2]) {
          const created = await request(url(), 'POST', '/v1/webhooks', {
            token: account.token,
            body: { url: world.receiver.url(`/t${trial}/a${n}/e${endpoint}`) },
          });
          if (created.status !== 201) throw new Error(`webhook endpoint: ${JSON.stringify(created.body)}`);
        }
      // The spender saves a card on the hosted page and turns auto-reload on.
      const cardBuyer = new Buyer(url, spender, eventSecret);
      await cardBuyer.run(1, random, 'page');
      const reload = await request(url(), 'POST', '/v1/me/autoreload', {
        token: spender.token,
        body: { enabled: true, quantity: 5, threshold_credits: 6 },
      });
      if (reload.status !== 200) throw new Error(`auto-reload: ${JSON.stringify(reload.body)}`);
      const spenderAssets = await uploadAssets(url(), spender);
      const buyerAssets = await uploadAssets(url(), buyer);
      const subscribers = accounts.map((a, n) => this.#subscribe(urlOf(n + 1), a));

      const submitters = [
        new Submitter(urlOf(0), spender, storeIds),
        new Submitter(urlOf(1), spender, storeIds),
        new Submitter(urlOf(2), buyer, storeIds),
      ];
      const buyers = [new Buyer(urlOf(3), buyer, eventSecret)];
      const victim = () => Math.floor(random() * this.#servers.length);
      const killAtMs = Math.round(100 + random() * (this.#options.killWindowMs - 100));
      const load = Promise.all([
        submitters[0]!.run(`t${trial}-s0`, spenderAssets, 10),
        submitters[1]!.run(`t${trial}-s1`, spenderAssets, 10),
        submitters[2]!.run(`t${trial}-b`, buyerAssets, 10),
        buyers[0]!.run(8, random),
      ]);
      await sleep(killAtMs);
      const first = victim();
      await this.#servers[first]!.kill9();
      await load;
      await restart(first);
      let kills = 1;
      if (random() < this.#options.secondKillChance) {
        // Again while a restarted process replays the outbox, resumes delivery jobs, re-sends webhooks.
        await sleep(random() * 800);
        await restart(victim());
        kills++;
      }
      let retried = 0;
      for (const actor of [...submitters, ...buyers]) retried += await actor.retryUnknown();

      const record: TrialRecord = {
        accountIds: accounts.map((a) => a.accountId),
        submissions: submitters.flatMap((s) => s.submissions),
        checkouts: [...cardBuyer.checkouts, ...buyers[0]!.checkouts],
        received: new Map(accounts.map((a, i) => [a.accountId, subscribers[i]!.cursors])),
      };
      await waitFor(
        () => trialSettled(world.orm.em, record),
        (settled) => settled,
        TRIAL_SETTLE_MS,
      );
      for (const subscriber of subscribers) await this.#unsubscribe(subscriber);
      record.stores = { received: sftp.received(), partialFiles: sftp.partialFiles() };
      const violations = await checkTrial(world.orm.em, record, world.receiver.hits);
      const counts = await this.#counts(world.orm.em, record.accountIds);
      const result: TrialResult = {
        trial,
        killAtMs,
        kills,
        accepted: record.submissions.filter((s) => s.outcome === 'accepted').length,
        retried,
        paid: record.checkouts.filter((c) => c.outcome === 'paid').length,
        ...counts,
        resumes: subscribers.reduce((sum, s) => sum + s.resumes, 0),
        violations,
        seconds: (performance.now() - trialStarted) / 1000,
      };
      results.push(result);
      this.#options.log(formatRow(result));
      for (const violation of violations) this.#options.log(`          ${violation}`);
    }

    // Claims leased by a killed worker (webhooks) and reloads it was running come back on their own.
    await waitFor(
      () => campaignSettled(world.orm.em, accountIds),
      (settled) => settled,
      240_000,
    );
    const final =
      accountIds.length > 0 ? await checkFinal(world.orm.em, accountIds, world.receiver.hits) : [];
    const report: CampaignReport = {
      seed: this.#options.seed,
      processes: this.#options.processes,
      trials: results,
      kills: results.reduce((sum, r) => sum + r.kills, 0),
      final,
      violations: results.reduce((sum, r) => sum + r.violations.length, 0) + final.length,
      seconds: (performance.now() - started) / 1000,
      webhookHits: world.receiver.hits.length,
      storePackages: [...sftp.received().values()].reduce((n, received) => n + received.length, 0),
    };
    return report;
  }

  async #counts(em: EntityManager, accountIds: string[]) {
    const [row] = await em.fork().execute<{ reloads: string; releases: string; events: string }[]>(
      `select (select count(*) from credit_transactions where account_id in (?) and type = 'auto_reload') as reloads,
              (select count(*) from releases where account_id in (?) and status <> 'draft') as releases,
              (select count(*) from outbox_events where account_id in (?)) as events`,
      [accountIds, accountIds, accountIds],
    );
    return { reloads: Number(row?.reloads), releases: Number(row?.releases), events: Number(row?.events) };
  }

  #subscribe(url: () => string, account: AccountFixture): ResumingSubscriber {
    const subscriber = new ResumingSubscriber(url, account.token);
    this.#subscribers.add(subscriber);
    subscriber.start();
    return subscriber;
  }

  async #unsubscribe(subscriber: ResumingSubscriber): Promise<void> {
    this.#subscribers.delete(subscriber);
    await subscriber.stop();
  }

  /** Stops everything the campaign started (also on Ctrl-C): subscribers, the server, the database. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const subscriber of this.#subscribers) await subscriber.stop().catch(() => undefined);
    for (const server of this.#servers) await server.stop().catch(() => undefined);
    for (const step of this.#cleanup.reverse()) await step().catch(() => undefined);
  }
}

const COLUMNS = [
  'trial',
  'kill at',
  'kills',
  'accepted',
  'retried',
  'paid',
  'reloads',
  'releases',
  'events',
  'resumes',
  'violations',
  's',
];

export const TABLE_HEADER = COLUMNS.map((c) => c.padStart(9)).join(' ');

export function formatRow(r: TrialResult): string {
  return [
    r.trial,
    `${r.killAtMs}ms`,
    r.kills,
    r.accepted,
    r.retried,
    r.paid,
    r.reloads,
    r.releases,
    r.events,
    r.resumes,
    r.violations.length,
    r.seconds.toFixed(1),
  ]
    .map((v) => String(v).padStart(9))
    .join(' ');
}

/** The summary and every violation, one a line. */
export function formatSummary(report: CampaignReport): string {
  const lines = [
    `seed ${report.seed}, processes ${report.processes}, trials ${report.trials.length}, kills ${report.kills}, violations ${report.violations}, ` +
      `duration ${report.seconds.toFixed(0)} s, accepted submissions ${sum(report, 'accepted')}, ` +
      `retried requests ${sum(report, 'retried')}, paid checkouts ${sum(report, 'paid')}, ` +
      `auto-reloads ${sum(report, 'reloads')}, releases distributed ${sum(report, 'releases')}, ` +
      `events ${sum(report, 'events')}, webhook hits ${report.webhookHits}, SFTP packages ${report.storePackages}, subscriber resumes ${sum(report, 'resumes')}`,
  ];
  for (const r of report.trials) for (const v of r.violations) lines.push(`  trial ${r.trial}: ${v}`);
  for (const v of report.final) lines.push(`  final: ${v}`);
  return lines.join('\n');
}

function sum(
  report: CampaignReport,
  key: 'accepted' | 'retried' | 'paid' | 'reloads' | 'releases' | 'events' | 'resumes',
) {
  return report.trials.reduce((total, r) => total + r[key], 0);
}
