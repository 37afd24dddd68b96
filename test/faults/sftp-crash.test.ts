import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { ormConfig } from '../../src/app-database.ts';
import { connectStore } from '../../src/domains/store-connections/index.ts';
import { createTestDatabase } from '../support/database.ts';
import { startDspSimulator } from '../support/dsp-simulator.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { imageBytes, makeWav } from '../support/media.ts';
import { useCleanup } from '../support/process-world.ts';
import { validSubmission } from '../support/releases.ts';
import { startServerProcess } from '../support/server-process.ts';
import { startSftpServer } from '../support/sftp-server.ts';
import { waitFor } from '../support/wait.ts';

const cleanup = useCleanup();
const SENDER = { DDEX_SENDER_DPID: 'PADPIDA2026TEST001', DDEX_SENDER_NAME: 'Tributary Test' };
const STORE = 302;
/** Each track its own resource file of about 3 MB (the base64 upload's ceiling): a package of ~36 MB. */
const TRACKS = 12;
const WAV_SECONDS = 17;
/**
 * The killed process's work job stays claimed until its heartbeat (10 s) is missed and pg-boss's
 * supervision (every 5 s) fails it; it is then retried after its 2 s delay: about 20 s at worst, plus
 * the rest of the upload and the acknowledgement.
 */
const RECOVERY_MS = 60_000;

/** Every file under `dir`, relative to it, with its inode and mtime. */
function filesUnder(dir: string, base = dir): Map<string, { ino: number; mtimeMs: number }> {
  const found = new Map<string, { ino: number; mtimeMs: number }>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) for (const [k, v] of filesUnder(full, base)) found.set(k, v);
    else {
      const stat = statSync(full);
      found.set(path.relative(base, full), { ino: stat.ino, mtimeMs: stat.mtimeMs });
    }
  }
  return found;
}

describe('the server process crashes while uploading a package over SFTP', () => {
  it('kill -9 mid-upload, then a restart: one complete package, once; nothing sent twice; the release goes live', async () => {
    const database = await createTestDatabase('sftpcrash');
    cleanup.push(database.drop);
    const orm = await MikroORM.init(ormConfig(database.url, 2));
    cleanup.push(() => orm.close());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-faults-sftp-'));
    cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const sftp = await startSftpServer();
    cleanup.push(() => sftp.close());
    const storeRoot = path.join(sftp.root, 'store');
    mkdirSync(storeRoot);

    // The adapter is chosen when the process starts: the store is connected before.
    const secretKey = randomBytes(32);
    await connectStore(
      orm.em.fork(),
      {
        store: String(STORE),
        sftpUrl: `sftp://${sftp.username}@127.0.0.1:${sftp.port}${storeRoot}`,
        credential: { method: 'private_key', privateKey: sftp.privateKey },
        hostKey: sftp.hostKey,
        recipientDpid: `PADPIDA${String(STORE).padStart(11, '0')}`,
        recipientName: `Store ${STORE} Ingestion`,
        choreography: 'release',
      },
      { secretKey, config: SENDER },
    );
    const env = {
      ...SENDER,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      OUTBOUND_ALLOW_PRIVATE: 'true',
      SANDBOX_STEP_SECONDS: '0.2',
      WEBHOOK_SECRET_KEY: secretKey.toString('base64'),
      SFTP_RETRY_SECONDS: '0.2',
      SFTP_ACK_POLL_SECONDS: '0.2',
    };
    let server = await startServerProcess(env);
    cleanup.push(() => server.stop());

    const account = await accountWithToken(orm.em.fork(), { credits: 60 });
    const wavFile = path.join(dataDir, 'track.wav');
    await makeWav(wavFile, WAV_SECONDS, { silence: true });
    const uploads = [
      {
        type: 'coverArt',
        file_name: 'cover.png',
        data_base64: (await imageBytes(3000, 3000)).toString('base64'),
      },
      { type: 'audio', file_name: 'track.wav', data_base64: (await readFile(wavFile)).toString('base64') },
    ];
    const [cover, audio] = await Promise.all(
      uploads.map((body) => request(server.url, 'POST', '/v1/files', { token: account.token, body })),
    );
    expect([cover!.status, audio!.status]).toEqual([201, 201]);
    const body = validSubmission({ coverUrl: cover!.body.fileUrl, audioUrl: audio!.body.fileUrl }, TRACKS);
    body.release.distribution_store_ids = [STORE];
    const dsp = startDspSimulator(storeRoot);
    cleanup.push(async () => dsp.stop());
    const submitted = await request(server.url, 'POST', '/v1/releases', { token: account.token, body });
    expect(submitted.status).toBe(201);
    const releaseId: string = submitted.body.releaseId;

    // Partly on the store's server: a resource in its final name, the message not yet there.
    const upc = await waitFor(
      async () =>
        (
          await orm.em
            .fork()
            .getConnection()
            .execute<{ upc: string | null }[]>('select upc from releases where id = ?', [releaseId])
        )[0]?.upc ?? null,
      (value) => value !== null,
      10_000,
    );
    let partial: Map<string, { ino: number; mtimeMs: number }> | undefined;
    const deadline = Date.now() + 20_000;
    while (!partial && Date.now() < deadline) {
      const files = filesUnder(storeRoot);
      const resources = [...files.keys()].filter((f) => /\/resources\/[^.][^/]*$/.test(f));
      if (resources.length > 0 && ![...files.keys()].some((f) => f.endsWith(`/${upc}.xml`))) {
        await server.kill9();
        partial = files;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(partial, 'the kill came while the package was partly uploaded').toBeDefined();
    // What was complete at the kill (taken again after it: a rename may have landed meanwhile).
    const atKill = filesUnder(storeRoot);
    expect([...atKill.keys()].some((f) => f.endsWith(`/${upc}.xml`))).toBe(false);
    const completeAtKill = [...atKill].filter(([f]) => /\/resources\/[^.][^/]*$/.test(f));
    expect(completeAtKill.length).toBeLessThan(TRACKS + 1);
    console.log(`killed with ${completeAtKill.length} of ${TRACKS + 1} resources in place`);

    server = await startServerProcess(env);
    const restarted = Date.now();
    const aggregate = await waitFor(
      async () =>
        (
          await orm.em
            .fork()
            .getConnection()
            .execute<{ aggregate_status: string }[]>('select aggregate_status from releases where id = ?', [
              releaseId,
            ])
        )[0]?.aggregate_status,
      (value) => value === 'distributed',
      RECOVERY_MS,
    );
    console.log(`distributed ${Date.now() - restarted} ms after the restart`);
    expect(aggregate).toBe('distributed');

    // The store received one complete package, once.
    dsp.stop();
    expect(dsp.received.map((r) => [path.basename(r.messagePath), r.answer.fileStatus])).toEqual([
      [`${upc}.xml`, 'FileOK'],
    ]);
    const [batch, ...otherBatches] = readdirSync(storeRoot);
    expect(otherBatches).toEqual([]);
    const final = filesUnder(storeRoot);
    expect([...final.keys()].filter((f) => path.basename(f).startsWith('.'))).toEqual([]);
    const message = readFileSync(path.join(storeRoot, batch!, `${upc}.xml`), 'utf8');
    const named = [
      ...message.matchAll(
        /<URI>([^<]+)<\/URI>\s*<HashSum>\s*<Algorithm>SHA-256<\/Algorithm>\s*<HashSumValue>([0-9a-f]{64})/g,
      ),
    ];
    expect(named).toHaveLength(TRACKS + 1);
    const resourceFiles = readdirSync(path.join(storeRoot, batch!, 'resources'));
    expect(resourceFiles.sort()).toEqual(named.map(([, uri]) => path.basename(uri!)).sort());
    for (const [, uri, sha256] of named) {
      const bytes = readFileSync(path.join(storeRoot, batch!, uri!));
      expect(createHash('sha256').update(bytes).digest('hex'), uri).toBe(sha256);
    }
    // What was complete before the kill was not sent again: the same inode, untouched.
    for (const [file, before] of completeAtKill) expect(final.get(file), file).toEqual(before);

    // The store is live, and the submission was debited once.
    const deliveries = await orm.em
      .fork()
      .getConnection()
      .execute<{ store_id: number; status: string }[]>(
        'select store_id, status from deliveries where release_id = ?',
        [releaseId],
      );
    expect(deliveries.map((d) => [Number(d.store_id), d.status])).toEqual([[STORE, 'live']]);
    const debits = await orm.em
      .fork()
      .getConnection()
      .execute<{ amount: number }[]>(
        `select amount from credit_transactions where account_id = ? and type = 'debit'`,
        [account.accountId],
      );
    expect(debits).toHaveLength(1);
  }, 200_000);
});
