import { MikroORM } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { ormConfig } from '../../src/app-database.ts';
import { postLedgerEntry } from '../../src/domains/credits/post-ledger-entry.ts';
import { appendEvent } from '../../src/platform/events/append-event.ts';
import { createTestDatabase } from '../support/database.ts';
import { accountWithToken } from '../support/factories.ts';
import { useCleanup } from '../support/process-world.ts';
import { Campaign, formatRow, formatSummary, TABLE_HEADER } from './campaign.ts';
import { checkFinal, checkTrial } from './checks.ts';
import { packageViolations } from './sftp-stores.ts';

const cleanup = useCleanup();

describe('kill -9 campaign, short form (the full one: npm run campaign -- --trials 50)', () => {
  it('three trials: each SIGKILL under mixed load loses nothing and charges nothing twice', async () => {
    const rows: string[] = [];
    const campaign = new Campaign({
      trials: 3,
      seed: Math.floor(Math.random() * 2 ** 31),
      maxMinutes: 3,
      killWindowMs: 1500,
      secondKillChance: 0.25,
      processes: 1,
      log: (line) => rows.push(line),
    });
    cleanup.push(() => campaign.close());
    const report = await campaign.run();
    console.log([TABLE_HEADER, ...rows, formatSummary(report)].join('\n'));
    expect(report.trials).toHaveLength(3);
    expect(report.kills).toBeGreaterThanOrEqual(3);
    expect(report.trials.map((t) => t.violations)).toEqual([[], [], []]);
    expect(report.final).toEqual([]);
    // The load really ran: releases went through the sandbox and the SFTP stores, money moved, events reached clients.
    expect(report.trials.every((t) => t.releases > 0 && t.events > 0 && t.paid > 0)).toBe(true);
    expect(report.webhookHits).toBeGreaterThan(0);
    // Two SFTP stores: a package for each release at each.
    expect(report.storePackages).toBe(2 * report.trials.reduce((n, t) => n + t.releases, 0));
    expect(formatRow(report.trials[0]!)).toContain(`${report.trials[0]!.killAtMs}ms`);
  }, 600_000);

  it('the checks report what a broken run would leave behind', async () => {
    const database = await createTestDatabase('campaign_checks');
    cleanup.push(database.drop);
    const orm = await MikroORM.init(ormConfig(database.url, 2));
    cleanup.push(() => orm.close());
    const account = await accountWithToken(orm.em.fork(), { credits: 5 });
    await orm.em.fork().transactional(async (em) => {
      await postLedgerEntry(em, {
        accountId: account.accountId,
        type: 'debit',
        amount: -1,
        ref: 'release:gone',
      });
      await appendEvent(em, { accountId: account.accountId, type: 'release.status_changed', payload: {} });
    });
    await orm.em
      .fork()
      .execute(`update credit_transactions set balance_after = balance_after + 1 where ref = 'release:gone'`);
    const violations = await checkTrial(
      orm.em,
      {
        accountIds: [account.accountId],
        submissions: [
          { key: 'k', body: { release: {}, tracks: [] }, releaseIds: [], outcome: 'unknown', attempts: 20 },
        ],
        checkouts: [{ sessionId: 'cs_sandbox_x', credits: 5, via: 'page', outcome: 'paid', attempts: 1 }],
        received: new Map([[account.accountId, [7]]]),
      },
      [],
    );
    expect(violations).toEqual(
      expect.arrayContaining([
        'debit release:gone has no submitted release',
        'submission k never answered after 20 attempts',
        'paid checkout:cs_sandbox_x credited 0 times',
        expect.stringMatching(/^ledger of .* breaks at seq/),
        expect.stringMatching(/^account .* balance 4 ≠ ledger 5$/),
        '1 outbox events never published',
        expect.stringMatching(/^subscriber of .* got \[7\], outbox \[\]$/),
      ]),
    );
    await orm.em.fork().execute(
      `insert into auto_reload_settings (account_id, enabled, threshold_credits, reload_credits,
         reload_amount_cents, in_flight_since, updated_at) values (?, true, 0, 5, 500, now(), now())`,
      [account.accountId],
    );
    expect(await checkFinal(orm.em, [account.accountId], [])).toContain('1 auto-reloads never finished');

    const taken = (messagePath: string, fileStatus: string) => ({
      messagePath,
      message: '',
      answer: { fileStatus },
    });
    expect(
      packageViolations([{ id: 'r1', upc: '000000000017' }], {
        received: new Map([
          [302, [taken('b1/000000000017.xml', 'FileOK'), taken('b2/000000000017.xml', 'FileOK')]],
          [303, [taken('b3/000000000017/000000000017.xml', 'ResourceCorrupt')]],
          [304, []],
        ]),
        partialFiles: ['store-302/b4/resources/.A1.flac.part'],
      }),
    ).toEqual([
      'store-302/b4/resources/.A1.flac.part left partial',
      'release r1 reached store 302 as [FileOK, FileOK]',
      'release r1 reached store 303 as [ResourceCorrupt]',
      'release r1 reached store 304 as []',
    ]);
  });
});
