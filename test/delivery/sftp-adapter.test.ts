import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { storeAdaptersFor } from '../../schema/services.ts';
import { createSandboxAdapter } from '../../src/domains/delivery/adapters/sandbox/sandbox-adapter.ts';
import type { SftpAdapterOptions } from '../../src/domains/delivery/adapters/sftp/options.ts';
import { createSftpAdapter } from '../../src/domains/delivery/adapters/sftp/sftp-adapter.ts';
import {
  type PackagedFile,
  SftpPackage,
} from '../../src/domains/delivery/adapters/sftp/sftp-package.entity.ts';
import { runPackageWork } from '../../src/domains/delivery/adapters/sftp/work.ts';
import { addStores } from '../../src/domains/delivery/add-stores.ts';
import type { Delivery } from '../../src/domains/delivery/delivery.entity.ts';
import { enqueueRelease } from '../../src/domains/delivery/enqueue-release.ts';
import { requestTakedown } from '../../src/domains/delivery/request-takedown.ts';
import { storeAdapters } from '../../src/domains/delivery/store-adapters.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { connectStore } from '../../src/domains/store-connections/index.ts';
import { StoredFile } from '../../src/domains/uploads/stored-file.entity.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { type Jobs, startJobs } from '../../src/platform/jobs/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createLocalDiskStorage } from '../../src/platform/storage/local-disk.ts';
import type { ObjectStorage } from '../../src/platform/storage/object-storage.ts';
import { startDeliveryRunner } from '../../src/workers/delivery-runner.ts';
import { type DspAnswer, type DspSimulator, startDspSimulator } from '../support/dsp-simulator.ts';
import { type SftpServer, startSftpServer } from '../support/sftp-server.ts';
import { waitFor } from '../support/wait.ts';
import { submittedRelease, useDeliveryOrm } from './harness.ts';
import { deliveriesOf, eventsOf, releaseOf } from './support.ts';

const SENDER = { DDEX_SENDER_DPID: 'PADPIDA2026TEST001', DDEX_SENDER_NAME: 'Tributary Test' };
const SETTINGS = { retrySeconds: 0.1, maxAttempts: 3, ackPollSeconds: 0.1, ackWindowSeconds: 60 };
const WAIT = 30_000;

describe('DDEX over SFTP to connected stores (real sshd, real runner)', () => {
  const orm = useDeliveryOrm();
  const secretKey = randomBytes(32);
  let server: SftpServer;
  let storageRoot: string;
  let storage: ObjectStorage;
  let jobs: Jobs | undefined;
  let stopRunner: (() => Promise<void>) | undefined;
  let simulator: DspSimulator | undefined;

  beforeAll(async () => {
    server = await startSftpServer();
    storageRoot = await mkdtemp(path.join(tmpdir(), 'sftp-adapter-storage-'));
    storage = createLocalDiskStorage({
      root: storageRoot,
      publicUrl: 'http://127.0.0.1',
      signingSecret: randomBytes(32).toString('hex'),
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(storageRoot, { recursive: true, force: true });
  });
  afterEach(async () => {
    simulator?.stop();
    await stopRunner?.();
    await jobs?.stop();
    stopRunner = undefined;
    jobs = undefined;
    simulator = undefined;
    await orm().em.fork().execute('delete from store_connections');
  });

  async function connect(
    storeId: number,
    root: string,
    choreography: 'release' | 'batch',
    hostKey = server.hostKey,
  ) {
    mkdirSync(path.join(server.root, root), { recursive: true });
    await connectStore(
      orm().em.fork(),
      {
        store: String(storeId),
        sftpUrl: `sftp://${server.username}@127.0.0.1:${server.port}${path.join(server.root, root)}`,
        credential: { method: 'private_key', privateKey: server.privateKey },
        hostKey,
        recipientDpid: `PADPIDA${String(storeId).padStart(11, '0')}`,
        recipientName: `Store ${storeId} Ingestion`,
        choreography,
      },
      { secretKey, config: SENDER },
    );
  }

  /** Gives every stored file of the release real bytes in storage, their hash and size on the row. */
  async function storeBytes(accountId: string) {
    const em = orm().em.fork();
    for (const file of await em.find(StoredFile, { account: accountId })) {
      const bytes = randomBytes(2000 + Math.floor(Math.random() * 1000));
      await storage.put(file.storageKey, bytes, { contentType: file.contentType });
      file.size = bytes.length;
      file.sha256 = createHash('sha256').update(bytes).digest('hex');
    }
    await em.flush();
  }

  async function delivering(
    storeIds: number[],
    connected: number[],
    options: { trackCount?: number; storage?: ObjectStorage; settings?: Partial<typeof SETTINGS> } = {},
  ) {
    const sftp = createSftpAdapter({
      storage: options.storage ?? storage,
      secretKey,
      sender: { dpid: SENDER.DDEX_SENDER_DPID, name: SENDER.DDEX_SENDER_NAME },
      settings: { ...SETTINGS, ...options.settings },
      timeouts: { connectMs: 3000 },
    });
    const adapters = storeAdapters(
      createSandboxAdapter({ stepSeconds: 0.2 }),
      new Map(connected.map((id) => [id, sftp])),
    );
    const { releaseId, accountId } = await submittedRelease(orm(), {
      storeIds,
      trackCount: options.trackCount,
    });
    await storeBytes(accountId);
    const em = orm().em.fork();
    await em.transactional(async (tem) => {
      await enqueueRelease(tem, await tem.findOneOrFail(Release, { id: releaseId }), systemClock, adapters);
    });
    const logger = createLogger('silent');
    jobs = await startJobs({ url: String(orm().config.get('clientUrl')), logger });
    stopRunner = await startDeliveryRunner({ boss: jobs.boss, em: () => orm().em.fork(), logger, adapters });
    return { releaseId, accountId, adapters };
  }

  const storeRow = async (releaseId: string, storeId: number) =>
    (await deliveriesOf(orm(), releaseId)).find((d) => d.storeId === storeId)!;

  function simulate(root: string, answer?: (messagePath: string) => DspAnswer | null) {
    simulator = startDspSimulator(path.join(server.root, root), answer);
    return simulator;
  }

  it('an album to two connected stores (release and batch choreography) goes live; the sandbox store too', async () => {
    const dsp = simulate('s302');
    const batchDsp = startDspSimulator(path.join(server.root, 's303'));
    await connect(302, '/s302', 'release');
    await connect(303, '/s303', 'batch');
    const { releaseId } = await delivering([301, 302, 303], [302, 303], { trackCount: 3 });
    const status = await waitFor(
      async () => (await releaseOf(orm(), releaseId)).aggregateStatus,
      (s) => s === 'distributed',
      WAIT,
    );
    expect(status).toBe('distributed');
    for (const storeId of [302, 303]) {
      const row = await storeRow(releaseId, storeId);
      expect(row).toMatchObject({ status: 'live', statusText: 'Live' });
      expect(row.ddexMessage).toContain('<MessageControlType>LiveMessage</MessageControlType>');
      expect(row.ddexMessage).toContain(`<PartyId>${SENDER.DDEX_SENDER_DPID}</PartyId>`);
      expect(row.ddexMessage).toContain(`<PartyId>PADPIDA${String(storeId).padStart(11, '0')}</PartyId>`);
    }
    expect((await storeRow(releaseId, 301)).ddexMessage).toContain('TestMessage');
    // Each store received its package once, complete and valid.
    batchDsp.stop();
    expect([...dsp.received, ...batchDsp.received].map((r) => r.answer.fileStatus)).toEqual([
      'FileOK',
      'FileOK',
    ]);
    const upc = (await releaseOf(orm(), releaseId)).upc!;
    const [batch302] = readdirSync(path.join(server.root, 's302'));
    expect(batch302).toMatch(/^\d{17}$/);
    expect(readdirSync(path.join(server.root, 's302', batch302!)).sort()).toEqual(
      [`${upc}.xml`, `ACK_${upc}.xml`, 'resources'].sort(),
    );
    expect(readdirSync(path.join(server.root, 's302', batch302!, 'resources'))).toHaveLength(4); // 3 tracks and the cover
    const [batch303] = readdirSync(path.join(server.root, 's303'));
    expect(readdirSync(path.join(server.root, 's303', batch303!)).sort()).toEqual(
      [`BatchComplete_${batch303}.xml`, upc].sort(),
    );
    expect(existsSync(path.join(server.root, 's303', batch303!, upc, `ACK_${upc}.xml`))).toBe(true);
    const changes = (await eventsOf(orm(), releaseId)).filter((e) => e.type === 'release.status_changed');
    expect(changes.at(-1)?.payload.status).toBe('distributed');
  });

  it('a store answering ResourceCorrupt fails with the store’s words; a single on another store goes live', async () => {
    simulate('bad', () => ({
      fileStatus: 'ResourceCorrupt',
      errorText: 'track 1 does not decode',
      manualCheckRequired: true,
    }));
    const good = startDspSimulator(path.join(server.root, 'good'));
    try {
      await connect(302, '/bad', 'release');
      await connect(303, '/good', 'release');
      const { releaseId } = await delivering([302, 303], [302, 303], { trackCount: 1 });
      const failed = await waitFor(
        () => storeRow(releaseId, 302),
        (d) => d.status === 'failed',
        WAIT,
      );
      expect(failed.statusText).toBe(
        'Delivery failed: The store answered ResourceCorrupt: track 1 does not decode.',
      );
      const live = await waitFor(
        () => storeRow(releaseId, 303),
        (d) => d.status === 'live',
        WAIT,
      );
      expect(live.status).toBe('live');
      const changes = (await eventsOf(orm(), releaseId)).filter((e) => e.type === 'release.status_changed');
      expect(JSON.stringify(changes.map((e) => e.payload))).toContain(
        'ResourceCorrupt: track 1 does not decode',
      );
    } finally {
      good.stop();
    }
  });

  it('a store whose message does not validate answers NewReleaseMessageInvalid and fails', async () => {
    // The store validates against the schema; a message it cannot read is refused with the reason.
    simulate('invalid', () => ({
      fileStatus: 'NewReleaseMessageInvalid',
      errorText: 'Element Foo: not expected',
    }));
    await connect(302, '/invalid', 'batch');
    const { releaseId } = await delivering([302], [302], { trackCount: 1 });
    const failed = await waitFor(
      () => storeRow(releaseId, 302),
      (d) => d.status === 'failed',
      WAIT,
    );
    expect(failed.reason).toBe('The store answered NewReleaseMessageInvalid: Element Foo: not expected.');
  });

  it('a wrong host key: the store shows the error, delayed, then fails after the limit; fixed and distributed again, it is delivered', async () => {
    const wrong = `SHA256:${createHash('sha256').update('another key').digest('base64').replace(/=+$/, '')}`;
    await connect(302, '/wrongkey', 'release', wrong);
    const { releaseId, adapters } = await delivering([302], [302], { trackCount: 1 });
    const delayed = await waitFor(
      () => storeRow(releaseId, 302),
      (d) => d.statusText.startsWith('Delivery delayed'),
      WAIT,
    );
    expect(delayed.statusText).toMatch(/^Delivery delayed \(attempt \d\): .*host key/i);
    const failed = await waitFor(
      () => storeRow(releaseId, 302),
      (d) => d.status === 'failed',
      WAIT,
    );
    expect(failed.reason).toMatch(/^Store unreachable after 3 attempts: .*host key/i);
    // Nothing was sent to a server that is not the store.
    expect(readdirSync(path.join(server.root, 'wrongkey'))).toEqual([]);

    // The operator pins the right key and distributes again: a new package, delivered.
    const dsp = simulate('wrongkey');
    await connect(302, '/wrongkey', 'release');
    const em = orm().em.fork();
    const release = await em.findOneOrFail(Release, { id: releaseId });
    expect((await addStores(em, release, [302], systemClock, adapters)).queued).toEqual([302]);
    const live = await waitFor(
      () => storeRow(releaseId, 302),
      (d) => d.status === 'live',
      WAIT,
    );
    expect(live.status).toBe('live');
    expect(dsp.received.map((r) => r.answer.fileStatus)).toEqual(['FileOK']);
  });

  it('a connection dropped in the middle of a file: the next attempt sends only what is missing, the store gets the package once', async () => {
    const dsp = simulate('drop');
    await connect(302, '/drop', 'release');
    const reads = new Map<string, number>();
    let dropped = false;
    // Real storage; the second file read makes the server kill the session half-way through it.
    const dropping: ObjectStorage = {
      ...storage,
      async get(key) {
        const count = (reads.get(key) ?? 0) + 1;
        reads.set(key, count);
        const stream = await storage.get(key);
        if (reads.size !== 2 || dropped) return stream;
        dropped = true;
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        const bytes = Buffer.concat(chunks);
        return Readable.from(
          (async function* () {
            yield bytes.subarray(0, 1000);
            server.dropSessions();
            await new Promise((r) => setTimeout(r, 300));
            yield bytes.subarray(1000);
          })(),
        );
      },
    };
    const { releaseId } = await delivering([302], [302], { trackCount: 2, storage: dropping });
    const live = await waitFor(
      () => storeRow(releaseId, 302),
      (d) => d.status === 'live',
      WAIT,
    );
    expect(live.status).toBe('live');
    expect(dropped).toBe(true);
    // Three files (two tracks, the cover): the one cut off was read twice, the others once.
    expect([...reads.values()].sort()).toEqual([1, 1, 2]);
    expect(dsp.received.map((r) => r.answer.fileStatus)).toEqual(['FileOK']);
  });

  it('a stored file that does not hash to what the message says is never left on the server; the store fails', async () => {
    const dsp = simulate('integrity');
    await connect(302, '/integrity', 'release');
    const tampered: ObjectStorage = {
      ...storage,
      async get(key) {
        const stream = await storage.get(key);
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        const bytes = Buffer.concat(chunks);
        bytes[0] = bytes[0]! ^ 0xff;
        return Readable.from([bytes]);
      },
    };
    const { releaseId } = await delivering([302], [302], { trackCount: 1, storage: tampered });
    const failed = await waitFor(
      () => storeRow(releaseId, 302),
      (d) => d.status === 'failed',
      WAIT,
    );
    expect(failed.reason).toMatch(
      /^Store unreachable after 3 attempts: .*hashes to [0-9a-f]{64}.*not the message's/,
    );
    expect(dsp.received).toEqual([]);
    const [batch] = readdirSync(path.join(server.root, 'integrity'));
    expect(readdirSync(path.join(server.root, 'integrity', batch!, 'resources'))).toEqual([]);
  });

  it('an error the store says a re-send fixes (ManualCheckRequired false) is sent again as a new package', async () => {
    let answers = 0;
    const dsp = simulate('resend', () =>
      answers++ === 0
        ? { fileStatus: 'ResourceCorrupt', errorText: 'checksum', manualCheckRequired: false }
        : null,
    );
    await connect(302, '/resend', 'release');
    const { releaseId } = await delivering([302], [302], { trackCount: 1 });
    const live = await waitFor(
      () => storeRow(releaseId, 302),
      (d) => d.status === 'live',
      WAIT,
    );
    expect(live.status).toBe('live');
    expect(dsp.received.map((r) => r.answer.fileStatus)).toEqual(['ResourceCorrupt', 'FileOK']);
    expect(readdirSync(path.join(server.root, 'resend'))).toHaveLength(2);
  });

  it('a takedown to a connected store is delivered the same way: a package of its own, acknowledged', async () => {
    const dsp = simulate('takedown');
    await connect(302, '/takedown', 'release');
    const { releaseId, adapters } = await delivering([302], [302], { trackCount: 1 });
    await waitFor(
      () => storeRow(releaseId, 302),
      (d) => d.status === 'live',
      WAIT,
    );
    const em = orm().em.fork();
    const release = await em.findOneOrFail(Release, { id: releaseId });
    expect((await requestTakedown(em, release, [302], systemClock, adapters)).requested).toEqual([302]);
    const down = await waitFor(
      () => storeRow(releaseId, 302),
      (d) => d.status === 'taken_down',
      WAIT,
    );
    expect(down.statusText).toBe('Takedown delivered');
    expect(dsp.received.map((r) => r.answer.fileStatus)).toEqual(['FileOK', 'FileOK']);
    expect(dsp.received[1]!.message).toContain('<EndDate>');
    expect(dsp.received[1]!.message).toContain('<MessageControlType>LiveMessage</MessageControlType>');
    const batches = readdirSync(path.join(server.root, 'takedown')).sort();
    expect(batches).toHaveLength(2);
    // The takedown sends the message alone: the store has the resources.
    expect(readdirSync(path.join(server.root, 'takedown', batches[1]!)).sort()).toEqual(
      [
        `ACK_${(await releaseOf(orm(), releaseId)).upc}.xml`,
        `${(await releaseOf(orm(), releaseId)).upc}.xml`,
      ].sort(),
    );
  });

  it('a connected store added to a release live on the sandbox gets a full package of its own and goes live', async () => {
    const dsp = simulate('added');
    await connect(303, '/added', 'batch');
    const { releaseId, adapters } = await delivering([301], [303], { trackCount: 2 });
    await waitFor(
      () => storeRow(releaseId, 301),
      (d) => d.status === 'live',
      WAIT,
    );
    expect(readdirSync(path.join(server.root, 'added'))).toEqual([]);
    const em = orm().em.fork();
    const release = await em.findOneOrFail(Release, { id: releaseId });
    expect((await addStores(em, release, [303], systemClock, adapters)).queued).toEqual([303]);
    const live = await waitFor(
      () => storeRow(releaseId, 303),
      (d) => d.status === 'live',
      WAIT,
    );
    expect(live.status).toBe('live');
    // One package, as a new release for this store: both tracks' audio and the cover, hashes checked.
    expect(dsp.received.map((r) => r.answer.fileStatus)).toEqual(['FileOK']);
    const [received] = dsp.received;
    expect(received!.message).toContain(`<MessageRecipient>`);
    expect(received!.message).toContain('PADPIDA00000000303');
    expect(received!.message.match(/<File>/g)).toHaveLength(3);
    expect((await storeRow(releaseId, 301)).status).toBe('live');
  });

  it('a store that does not acknowledge keeps showing "Awaiting acknowledgement", then says since when', async () => {
    await connect(302, '/silent', 'release');
    const { releaseId } = await delivering([302], [302], {
      trackCount: 1,
      settings: { ackWindowSeconds: 1.5 },
    });
    const awaiting = await waitFor(
      () => storeRow(releaseId, 302),
      (d) => d.statusText === 'Awaiting acknowledgement',
      WAIT,
    );
    expect(awaiting).toMatchObject({ status: 'in_inspection', statusText: 'Awaiting acknowledgement' });
    const late = await waitFor(
      () => storeRow(releaseId, 302),
      (d) => d.statusText.startsWith('Awaiting acknowledgement: none since'),
      WAIT,
    );
    expect(late.statusText).toMatch(/^Awaiting acknowledgement: none since \d{4}-\d\d-\d\dT/);
    expect(late.status).toBe('in_inspection');
  });

  it('records each resource once it has its final name, while the next one is sent', async () => {
    await connect(302, '/overlap', 'release');
    const owner = randomUUID();
    const files: PackagedFile[] = [];
    for (let i = 0; i < 3; i++) {
      const bytes = randomBytes(300_000);
      const storageKey = `audio/${owner}/track-${i}.wav`;
      await storage.put(storageKey, bytes, { contentType: 'audio/wav' });
      files.push({
        path: `b1/resources/track-${i}.wav`,
        storageKey,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        size: bytes.length,
      });
    }
    const id = `${randomUUID()}:release`;
    const arrange = orm().em.fork();
    arrange.create(SftpPackage, {
      ...{ id, deliveryId: randomUUID(), kind: 'release', batchId: '20260101000000000' },
      ...{ directory: 'b1', messageFile: '0000000000001.xml', message: '<NewReleaseMessage/>' },
      ...{ batchComplete: false, files, completed: [], nextWorkAt: new Date() },
    });
    await arrange.flush();

    const events: string[] = [];
    const watched: ObjectStorage = {
      ...storage,
      async get(key, options) {
        events.push(`read ${key.split('/').at(-1)}`);
        return storage.get(key, options);
      },
    };
    const em = orm().em.fork();
    const pkg = await em.findOneOrFail(SftpPackage, { id });
    const flush = em.flush.bind(em);
    const onServer = (file: string) => existsSync(path.join(server.root, 'overlap', file));
    let recorded: string | undefined;
    // Each record is slow (a commit under load): the next resource goes on meanwhile.
    em.flush = async () => {
      const last = pkg.completed.at(-1);
      if (!last || last === recorded) return flush();
      recorded = last;
      events.push(`record ${path.posix.basename(last)}`);
      // In place under its final name; the message, only once every resource is.
      expect(onServer(last)).toBe(true);
      expect(onServer('b1/0000000000001.xml')).toBe(last === 'b1/0000000000001.xml');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await flush();
      events.push(`recorded ${path.posix.basename(last)}`);
    };
    const options: SftpAdapterOptions = {
      storage: watched,
      secretKey,
      sender: { dpid: SENDER.DDEX_SENDER_DPID, name: SENDER.DDEX_SENDER_NAME },
      settings: SETTINGS,
      timeouts: { connectMs: 3000 },
    };
    const delivery = { storeId: 302 } as Readonly<Delivery>;
    await runPackageWork(
      { em, now: new Date(), signal: new AbortController().signal, delivery },
      id,
      options,
    );

    const saved = await orm().em.fork().findOneOrFail(SftpPackage, { id });
    expect(saved.lastError).toBeNull();
    expect(saved.uploadedAt).not.toBeNull();
    expect(saved.completed).toEqual([...files.map((f) => f.path), 'b1/0000000000001.xml']);
    // The second resource was read while the first was being recorded; the records, one at a time.
    expect(events.indexOf('read track-1.wav')).toBeLessThan(events.indexOf('recorded track-0.wav'));
    expect(events.filter((event) => event.startsWith('record'))).toEqual([
      ...['record track-0.wav', 'recorded track-0.wav', 'record track-1.wav', 'recorded track-1.wav'],
      ...['record track-2.wav', 'recorded track-2.wav'],
      ...['record 0000000000001.xml', 'recorded 0000000000001.xml'],
    ]);
    for (const file of files) {
      expect(statSync(path.join(server.root, 'overlap', file.path)).size).toBe(file.size);
    }
  });

  it('the composition puts connected stores on the sftp adapter and every other store on the sandbox', async () => {
    await connect(302, '/compose', 'release');
    const config = loadConfig({ ...SENDER, SFTP_MAX_ATTEMPTS: '4' });
    const adapters = await storeAdaptersFor(config, orm(), storage, secretKey);
    expect([adapters.forStore(302).name, adapters.forStore(301).name]).toEqual(['sftp', 'sandbox']);
    expect(adapters.all.map((a) => a.name).sort()).toEqual(['sandbox', 'sftp']);
    // Without a sender no message can name it: the start-up check refuses to start; nothing is connected here.
    const unsent = await storeAdaptersFor(loadConfig({}), orm(), storage, secretKey);
    expect(unsent.all.map((a) => a.name)).toEqual(['sandbox']);
    expect(loadConfig({}).SFTP_MAX_ATTEMPTS).toBe(6);
    expect(() => loadConfig({ SFTP_MAX_ATTEMPTS: '0' })).toThrow(/SFTP_MAX_ATTEMPTS/);
  });
});
