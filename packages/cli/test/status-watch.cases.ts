import { describe, expect, it } from 'vitest';
import { instructSandbox } from '../../../src/domains/delivery/adapters/sandbox/sandbox-control.ts';
import { advanceDue } from '../../../src/domains/delivery/advance-due.ts';
import { ManualClock } from '../../../src/platform/clock.ts';
import type { TestApp } from '../../../test/support/app.ts';
import { accountWithToken } from '../../../test/support/factories.ts';
import { uploadAssets, validSubmission } from '../../../test/support/releases.ts';
import { startCli, until } from './support.ts';

/** tributary status --watch (on the app of commands.test.ts). */
export function statusWatchCases(app: () => TestApp): void {
  describe('tributary status --watch', () => {
    it('updates live from the release events and exits 4 when a store failed', async () => {
      const account = await accountWithToken(app().em(), { credits: 20 });
      const body = validSubmission(await uploadAssets(app().url, account), 1);
      const submitted = await fetch(`${app().url}/v1/releases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, release: { ...body.release, distribution_store_ids: [301, 302] } }),
      });
      const { releaseId } = (await submitted.json()) as { releaseId: string };
      await instructSandbox(app().em(), releaseId, 302, { action: 'fail', reason: 'Ingestion timeout' });

      const watch = startCli(['status', releaseId, '--watch'], {
        TRIBUTARY_API_URL: app().url,
        TRIBUTARY_TOKEN: account.token,
        XDG_CONFIG_HOME: '/nonexistent',
      });
      await until(() => watch.output.stdout.includes('Release status: QUEUED'), 'the first table');
      // Give the subscription a moment to open, then step the sandbox until both stores are final.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const clock = new ManualClock(new Date());
      for (let step = 0; step < 4 && watch.exitCode === null; step++) {
        clock.advance(300);
        await advanceDue(app().em(), clock, app().services.storeAdapters);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const done = await watch.done;
      expect(done.code, done.stderr).toBe(4);
      expect(done.stdout).toMatch(/Spotify: In inspection/);
      expect(done.stdout).toMatch(/Apple Music: Delivery failed/);
      expect(done.stdout).toMatch(/Spotify: Live/);
      expect(done.stderr).toContain('stores failed or rejected the release: 302');
    });
  });
}
