import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import { accountWithToken } from '../../../test/support/factories.ts';
import { makeWav } from '../../../test/support/media.ts';
import { runCli, startCli, startCliInTerminal, tempConfig, until } from './support.ts';

/** tributary upload (on the app of commands.test.ts). */
export function uploadCases(app: () => TestApp): void {
  describe('tributary upload', () => {
    const config = tempConfig();
    afterAll(config.cleanup);
    const wav = path.join(config.dir, 'track.wav');

    it('without a TTY prints a progress line per chunk (bytes, rate, ETA), then the stored file; --json one document', async () => {
      await makeWav(wav, 1);
      const account = await accountWithToken(app().em());
      const env = {
        XDG_CONFIG_HOME: config.dir,
        TRIBUTARY_API_URL: app().url,
        TRIBUTARY_TOKEN: account.token,
      };
      const plain = await runCli(['upload', wav, '--chunk-bytes', '32768'], env);
      expect(plain.code, plain.stderr).toBe(0);
      const lines = plain.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^track\.wav 0 B\/\d+\.\d KiB 0% .*\/s ETA /);
      expect(lines.filter((line) => /^track\.wav .* \d+% .*\/s ETA \S+$/.test(line)).length).toBeGreaterThan(
        2,
      );
      expect(lines.at(-2)).toMatch(/ 100% /);
      expect(lines.at(-1)).toMatch(new RegExp(`^${wav} → /api/files/`));
      expect(plain.stdout).not.toContain('\r');

      const json = await runCli(['upload', wav, '--json'], env);
      expect(json.code, json.stderr).toBe(0);
      const document = JSON.parse(json.stdout);
      expect(document.files[0]).toMatchObject({ file: wav, resumed: false, fileUrl: expect.any(String) });
      expect(document.files[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it('Ctrl-C stops it (exit 130, the session kept); the next run resumes the session and completes', async () => {
      await makeWav(wav, 6);
      const account = await accountWithToken(app().em());
      const env = {
        XDG_CONFIG_HOME: config.dir,
        TRIBUTARY_API_URL: app().url,
        TRIBUTARY_TOKEN: account.token,
      };
      const first = startCli(['upload', wav, '--chunk-bytes', '16384'], env);
      await until(() => / [1-9]\d?% /.test(first.output.stdout), 'a chunk sent');
      first.kill('SIGINT');
      const stopped = await first.done;
      expect(stopped.code).toBe(130);
      expect(stopped.stderr).toContain('run the same command again to resume');
      const state = JSON.parse(readFileSync(path.join(config.dir, 'tributary/uploads.json'), 'utf8'));
      const sessionId = (Object.values(state) as { sessionId: string }[])[0]?.sessionId;

      const second = await runCli(['upload', wav, '--chunk-bytes', '16384', '--json'], env);
      expect(second.code, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout).files[0]).toMatchObject({ resumed: true });
      expect(JSON.parse(readFileSync(path.join(config.dir, 'tributary/uploads.json'), 'utf8'))).toEqual({});
      expect(sessionId).toBeTruthy();
    });

    it('under a pseudo-terminal (script) draws a bar with bytes, rate and ETA', async () => {
      await makeWav(wav, 1);
      const account = await accountWithToken(app().em());
      const run = await startCliInTerminal(['upload', wav, '--chunk-bytes', '32768'], {
        XDG_CONFIG_HOME: config.dir,
        TRIBUTARY_API_URL: app().url,
        TRIBUTARY_TOKEN: account.token,
      }).done;
      expect(run.code, run.stdout).toBe(0);
      const { stdout } = run;
      expect(stdout).toMatch(/track\.wav\s+\[[█░]+\] 100% \| \d+\.\d KiB\/\d+\.\d KiB \| .*\/s \| ETA \d+s/);
      expect(stdout).toContain('\r');
    });
  });
}
