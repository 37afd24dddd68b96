import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { createClient } from 'graphql-ws';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ormConfig } from '../../src/app-database.ts';
import { OutboxEvent } from '../../src/platform/events/outbox-event.entity.ts';
import { createTestDatabase } from '../support/database.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';
import { waitFor } from '../support/wait.ts';

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
});

async function environment(label: string) {
  const database = await createTestDatabase(label);
  cleanup.push(database.drop);
  const orm = await MikroORM.init(ormConfig(database.url, 4));
  cleanup.push(() => orm.close());
  const dataDir = mkdtempSync(path.join(tmpdir(), `tributary-${label}-`));
  cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  return { database, orm, dataDir };
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  cleanup.push(server.stop);
  return server;
}

describe('delivery across processes', () => {
  it('killing the process during delivery loses no event and no progress', async () => {
    const { database, orm, dataDir } = await environment('dcrash');
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, SANDBOX_STEP_SECONDS: '0.3' };
    let server = await start(env);
    const account = await accountWithToken(orm.em.fork(), { credits: 20 });
    const assets = await uploadAssets(server.url, account);
    const releaseIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const body = validSubmission(assets, 1);
      body.release.distribution_store_ids = [301, 302, 303];
      releaseIds.push(
        (await request(server.url, 'POST', '/v1/releases', { token: account.token, body })).body.releaseId,
      );
    }
    await new Promise((r) => setTimeout(r, 500));
    await server.kill9();
    server = await start(env);

    for (const id of releaseIds) {
      const status = await waitFor(
        async () =>
          (await request(server.url, 'GET', `/v1/releases/${id}/status`, { token: account.token })).body,
        (s) => s.aggregateStatus === 'distributed',
      );
      expect(status.aggregateStatus).toBe('distributed');
    }
    await waitFor(
      async () => orm.em.fork().count(OutboxEvent, { cursor: null }),
      (n) => n === 0,
      10_000,
    );
    for (const id of releaseIds) {
      const events = await orm.em.fork().find(OutboxEvent, { releaseId: id }, { orderBy: { cursor: 'asc' } });
      const moves = events
        .filter((e) => e.type === 'release.status_changed')
        .map((e) => `${e.payload.previousStatus}→${e.payload.status}`);
      expect(moves).toEqual(['queued→pending', 'pending→delivered', 'delivered→distributed']);
      expect(events.filter((e) => e.type === 'release.approved')).toHaveLength(1);
      expect(events.every((e) => e.cursor !== null)).toBe(true);
    }
  }, 90_000);

  it('two server processes on one PostgreSQL and one Redis: a subscriber on the second sees a release delivered through the first', async () => {
    const { database, orm, dataDir } = await environment('dtwo');
    const shared = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      REDIS_URL: 'redis://127.0.0.1:6379',
      SANDBOX_STEP_SECONDS: '0.2',
    };
    const first = await start(shared);
    const second = await start(shared);
    const account = await accountWithToken(orm.em.fork(), { credits: 10 });
    const assets = await uploadAssets(first.url, account);

    const events: { type: string; payload: { status?: string } }[] = [];
    const client = createClient({
      url: `${second.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${account.token}` },
      retryAttempts: 0,
    });
    cleanup.push(async () => {
      await client.dispose();
    });
    await new Promise<void>((resolve) => {
      client.on('connected', () => resolve());
      client.subscribe<{ releaseEvents: { type: string; payload: string } }>(
        { query: 'subscription { releaseEvents { type payload } }' },
        {
          next: (v) =>
            v.data &&
            events.push({ ...v.data.releaseEvents, payload: JSON.parse(v.data.releaseEvents.payload) }),
          error: () => {},
          complete: () => {},
        },
      );
    });
    await new Promise((r) => setTimeout(r, 200));
    const body = validSubmission(assets, 1);
    body.release.distribution_store_ids = [301];
    const submitted = await request(first.url, 'POST', '/v1/releases', { token: account.token, body });
    expect(submitted.status).toBe(201);
    await waitFor(
      async () => events,
      (e) => e.some((x) => x.type === 'RELEASE_APPROVED'),
      20_000,
    );
    expect(events.filter((e) => e.type === 'RELEASE_STATUS_CHANGED').map((e) => e.payload.status)).toEqual([
      'pending',
      'delivered',
      'distributed',
    ]);
  }, 90_000);
});
