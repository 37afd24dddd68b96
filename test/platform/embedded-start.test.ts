import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** `npm start` with no DATABASE_URL: the embedded PostgreSQL under DATA_DIR, as on a fresh machine. */
function start(dataDir: string, pgPort: number): { child: ChildProcess; url: Promise<string> } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    EMBEDDED_POSTGRES_PORT: String(pgPort),
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['facades/start.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"([^"]+)"/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
  });
  return { child, url };
}

describe('embedded default (no DATABASE_URL)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-embedded-'));
  const pgPort = 30000 + Math.floor(Math.random() * 20000);
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves GET /v1/status within 60 s, then recovers after kill -9 left its PostgreSQL running', async () => {
    const started = Date.now();
    const first = start(dataDir, pgPort);
    children.push(first.child);
    const url = await first.url;
    const status = await fetch(`${url}/v1/status`);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ status: 'ok', database: 'ok' });
    expect(Date.now() - started).toBeLessThan(60_000);

    first.child.kill('SIGKILL');
    await once(first.child, 'exit');

    const second = start(dataDir, pgPort);
    children.push(second.child);
    const again = await second.url;
    const after = await fetch(`${again}/v1/status`);
    expect(after.status).toBe(200);

    second.child.kill('SIGTERM');
    const [code] = await once(second.child, 'exit');
    expect(code).toBe(0);
  }, 120_000);
});
