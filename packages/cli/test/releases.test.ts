import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.ts';
import { accountWithToken } from '../../../test/support/factories.ts';
import { uploadAssets, validSubmission } from '../../../test/support/releases.ts';
import { runCli, tempConfig } from './support.ts';

describe('tributary validate, quote, submit --watch, status --watch', () => {
  // Stores move every 0.2 s, so a release is final in a few seconds.
  const app = useTestApp({ SANDBOX_STEP_SECONDS: '0.2' }, { background: true });
  const config = tempConfig();
  afterAll(config.cleanup);

  async function arrange() {
    const account = await accountWithToken(app().em(), { credits: 20 });
    const body = validSubmission(await uploadAssets(app().url, account), 1);
    const env = { XDG_CONFIG_HOME: config.dir, TRIBUTARY_API_URL: app().url, TRIBUTARY_TOKEN: account.token };
    return { account, body, env };
  }

  const write = (name: string, value: unknown) => {
    const file = path.join(config.dir, name);
    writeFileSync(file, JSON.stringify(value));
    return file;
  };

  it('validate prints each finding with its fix and exits 5 on a blocker; --json is one document of findings', async () => {
    const { body, env } = await arrange();
    const file = write('broken.json', {
      ...body,
      release: { ...body.release, title: 'Morning Light (Official Video)' },
    });
    const plain = await runCli(['validate', file], env);
    expect(plain.code).toBe(5);
    expect(plain.stdout).toContain(
      '✗ release.title: Marketing words ("Official Video") are not part of a title. [title.no-marketing-words]',
    );
    expect(plain.stdout).toContain('fix: Morning Light');

    const json = await runCli(['validate', file, '--json'], env);
    expect(json.code).toBe(5);
    const document = JSON.parse(json.stdout);
    expect(document.submittable).toBe(false);
    expect(document.blockers).toContainEqual(
      expect.objectContaining({ rule: 'title.no-marketing-words', suggestion: 'Morning Light' }),
    );

    // Nothing is submitted when the rules block.
    const submit = await runCli(['submit', file, '--json'], env);
    expect(submit.code).toBe(5);
    expect(JSON.parse(submit.stdout)).toMatchObject({ submitted: false });
    const good = await runCli(['quote', write('good.json', body)], env);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/^Cost: \d+ credits/m);

    // A key makes a retry safe: the second run answers the same release, uncharged.
    const keyed = ['submit', write('keyed.json', body), '--idempotency-key', `cli-${Date.now()}`, '--json'];
    const first = JSON.parse((await runCli(keyed, env)).stdout);
    const again = await runCli(keyed, env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ releaseId: first.releaseId, alreadySubmitted: true });
  });

  it('submit --watch follows every store live (a line per change without a TTY) until all are final', async () => {
    const { body, env } = await arrange();
    const submitted = await runCli(['submit', write('release.json', body), '--watch'], env);
    expect(submitted.code, submitted.stderr).toBe(0);
    const lines = submitted.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Submitted \S+ \(\d+ credits charged\)$/);
    expect(lines).toContain('Release status: QUEUED');
    for (const status of ['In inspection', 'Delivered to DSP', 'Live'])
      expect(lines.some((line) => line.endsWith(`: ${status}`))).toBe(true);
    expect(lines.at(-1)).toBe('Every store is final (distributed).');
    const releaseId = /^Submitted (\S+)/.exec(lines[0]!)![1]!;

    // Already final: status --watch answers at once, as one JSON document.
    const status = await runCli(['status', releaseId, '--watch', '--json'], env);
    expect(status.code, status.stderr).toBe(0);
    const document = JSON.parse(status.stdout);
    expect(document.failedStores).toEqual([]);
    expect(document.stores.length).toBeGreaterThan(0);
    expect(document.stores.every((store: { statusText: string }) => store.statusText === 'Live')).toBe(true);
  });
});
