import { describe, expect, it } from 'vitest';
import { instructSandbox } from '../../../src/domains/delivery/adapters/sandbox/sandbox-control.ts';
import { advanceDue } from '../../../src/domains/delivery/advance-due.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import type { TestApp } from '../../../test/support/app.ts';
import { accountWithToken } from '../../../test/support/factories.ts';
import { uploadAssets, validSubmission } from '../../../test/support/releases.ts';
import { startCli, startCliInTerminal, until } from './support.ts';

/** tributary status --watch (on the app of commands.test.ts). */
export function statusWatchCases(app: () => TestApp): void {
  describe('tributary status --watch', () => {
    /** A release submitted to Spotify (301) and Apple Music (302), and the environment of its account. */
    async function submitted() {
      const account = await accountWithToken(app().em(), { credits: 20 });
      const body = validSubmission(await uploadAssets(app().url, account), 1);
      const answer = await fetch(`${app().url}/v1/releases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, release: { ...body.release, distribution_store_ids: [301, 302] } }),
      });
      const { releaseId } = (await answer.json()) as { releaseId: string };
      const env = {
        TRIBUTARY_API_URL: app().url,
        TRIBUTARY_TOKEN: account.token,
        XDG_CONFIG_HOME: '/nonexistent',
      };
      return { releaseId, env };
    }

    /** Steps the sandbox (after a moment for the subscription to open) until the watch ends. */
    async function stepUntilEnded(watch: { exitCode: number | null }) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const clock = new ManualClock(new Date());
      for (let step = 0; step < 4 && watch.exitCode === null; step++) {
        clock.advance(300);
        await advanceDue(app().em(), clock, app().services.storeAdapters);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }

    it('updates live from the release events and exits 4 when a store failed', async () => {
      const { releaseId, env } = await submitted();
      await instructSandbox(app().em(), releaseId, 302, { action: 'fail', reason: 'Ingestion timeout' });
      const watch = startCli(['status', releaseId, '--watch'], env);
      await until(() => watch.output.stdout.includes('Release status: QUEUED'), 'the first table');
      await stepUntilEnded(watch);
      const done = await watch.done;
      expect(done.code, done.stderr).toBe(4);
      expect(done.stdout).toMatch(/Spotify: In inspection/);
      expect(done.stdout).toMatch(/Apple Music: Delivery failed/);
      expect(done.stdout).toMatch(/Spotify: Live/);
      expect(done.stderr).toContain('stores failed or rejected the release: 302');
    });

    it('on a terminal redraws the table in place until every store is live (exit 0)', async () => {
      const { releaseId, env } = await submitted();
      const watch = startCliInTerminal(['status', releaseId, '--watch'], env);
      await until(() => watch.output.stdout.includes('Release status: QUEUED'), 'the first table');
      await stepUntilEnded(watch);
      const done = await watch.done;
      expect(done.code, done.stdout).toBe(0);
      // Four lines (the status, the header, two stores) drawn again over themselves.
      expect(done.stdout).toContain('\x1b[4A');
      expect(done.stdout).toMatch(/Spotify\s+Live\s+https:\/\/spotify\.sandbox\.example\/release\//);
      expect(done.stdout).toMatch(/Apple Music\s+Live/);
      expect(done.stdout).not.toMatch(/Spotify: /);
    });
  });
}
