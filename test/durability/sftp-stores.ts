import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { connectStore } from '../../src/domains/store-connections/index.ts';
import type { Choreography } from '../../src/domains/store-connections/store-connection.entity.ts';
import { type DspSimulator, type ReceivedPackage, startDspSimulator } from '../support/dsp-simulator.ts';
import { startSftpServer } from '../support/sftp-server.ts';

const SENDER = { DDEX_SENDER_DPID: 'PADPIDA2026CAMP001', DDEX_SENDER_NAME: 'Tributary Campaign' };

/** The campaign's stores on DDEX over SFTP: one of each choreography, on one real sshd. */
const CONNECTED: readonly { storeId: number; choreography: Choreography }[] = [
  { storeId: 302, choreography: 'release' },
  { storeId: 303, choreography: 'batch' },
];

export interface SftpStores {
  storeIds: number[];
  /** What the server processes need: the sender's identity and short retry and polling periods. */
  env: Record<string, string>;
  /** Every package each store received, as its simulator read it. */
  received(): Map<number, readonly ReceivedPackage[]>;
  /** Files left under a temporary name (a partial upload nothing finished), relative to the roots. */
  partialFiles(): string[];
  close(): Promise<void>;
}

/**
 * Connects stores 302 and 303 over SFTP to a real sshd, each with a DSP simulator that validates every
 * package and acknowledges it. Done before the server processes start: they choose adapters at start.
 */
export async function startSftpStores(em: EntityManager, secretKey: Buffer): Promise<SftpStores> {
  const server = await startSftpServer();
  const simulators = new Map<number, DspSimulator>();
  const roots: string[] = [];
  for (const { storeId, choreography } of CONNECTED) {
    const root = path.join(server.root, `store-${storeId}`);
    mkdirSync(root);
    roots.push(root);
    await connectStore(
      em.fork(),
      {
        store: String(storeId),
        sftpUrl: `sftp://${server.username}@127.0.0.1:${server.port}${root}`,
        credential: { method: 'private_key', privateKey: server.privateKey },
        hostKey: server.hostKey,
        recipientDpid: `PADPIDA${String(storeId).padStart(11, '0')}`,
        recipientName: `Store ${storeId} Ingestion`,
        choreography,
      },
      { secretKey, config: SENDER },
    );
    simulators.set(storeId, startDspSimulator(root));
  }
  return {
    storeIds: CONNECTED.map((s) => s.storeId),
    env: { ...SENDER, SFTP_RETRY_SECONDS: '0.2', SFTP_ACK_POLL_SECONDS: '0.2' },
    received: () => new Map([...simulators].map(([storeId, dsp]) => [storeId, dsp.received])),
    partialFiles: () => roots.flatMap((root) => hiddenFiles(root).map((f) => path.relative(server.root, f))),
    close: async () => {
      for (const dsp of simulators.values()) dsp.stop();
      await server.close();
    },
  };
}

/** The adapter uploads each file as `.<name>.part` and renames it once complete. */
function hiddenFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return hiddenFiles(full);
    return entry.name.startsWith('.') ? [full] : [];
  });
}

/** What the SFTP stores received, as a trial's record holds it once the trial has settled. */
export interface StorePackages {
  received: Map<number, readonly ReceivedPackage[]>;
  partialFiles: string[];
}

/**
 * Each release reached each SFTP store as one complete package, once, and the store took it
 * (`FileOK`: its message valid, every file's hash and size right); nothing is left half-written.
 */
export function packageViolations(
  releases: readonly { id: string; upc: string | null }[],
  stores: StorePackages,
): string[] {
  const violations = stores.partialFiles.map((file) => `${file} left partial`);
  for (const [storeId, received] of stores.received)
    for (const release of releases) {
      const packages = received.filter((p) => path.basename(p.messagePath) === `${release.upc}.xml`);
      const answers = packages.map((p) => p.answer.fileStatus).join(', ');
      if (answers !== 'FileOK')
        violations.push(`release ${release.id} reached store ${storeId} as [${answers}]`);
    }
  return violations;
}
