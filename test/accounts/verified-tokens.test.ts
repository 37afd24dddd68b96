import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, describe, expect, it } from 'vitest';
import { ormConfig } from '../../src/app-database.ts';
import { VERIFIED_TOKEN_TTL_MS } from '../../src/domains/accounts/verified-tokens.ts';
import { useTestApp } from '../support/app.ts';
import { createTestDatabase } from '../support/database.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';
import { countStatementsByRequest } from '../support/sql-count.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
});

const revoke = (url: string, token: string, id: string) =>
  request(url, 'POST', '/graphql', {
    token,
    body: { query: 'mutation($id: ID!) { revokeAccessToken(id: $id) { status } }', variables: { id } },
  });

describe('verified tokens are cached, and a revocation reaches every process', () => {
  const app = useTestApp();

  it('a token seen a moment ago costs no database round trip', async () => {
    const sql = countStatementsByRequest();
    try {
      const account = await accountWithToken(app().em());
      const me = async (requestId: string) => {
        const answer = await request(app().url, 'GET', '/v1/me', {
          token: account.token,
          headers: { 'x-request-id': requestId },
        });
        expect(answer.status).toBe(200);
        return sql.count(requestId);
      };
      const first = await me(`first-${Date.now()}`);
      app().services.profiles.clear(); // so the second request reads the profile, and only that
      const second = await me(`second-${Date.now()}`);
      // The first verifies the token (and records its use); the second only reads the profile.
      expect(first).toBeGreaterThan(second);
      expect(second).toBe(1);
    } finally {
      sql.stop();
    }
  });

  it.each([
    ['Redis pub/sub', { REDIS_URL }],
    ['PostgreSQL NOTIFY (no Redis)', {}],
  ])(
    'revoking through one process ends access on another within one hop (%s)',
    async (_transport, extra) => {
      const database = await createTestDatabase('tokens2p');
      cleanup.push(database.drop);
      const orm = await MikroORM.init(ormConfig(database.url, 2));
      cleanup.push(() => orm.close());
      const dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-tokens2p-'));
      cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, ...extra };
      const servers: ServerProcess[] = [];
      for (let i = 0; i < 2; i++) {
        const server = await startServerProcess(env);
        cleanup.push(server.stop);
        servers.push(server);
      }
      const [one, two] = servers as [ServerProcess, ServerProcess];
      const account = await accountWithToken(orm.em.fork());
      // Both processes have verified (and cached) the token.
      expect((await request(one.url, 'GET', '/v1/me', { token: account.token })).status).toBe(200);
      expect((await request(two.url, 'GET', '/v1/me', { token: account.token })).status).toBe(200);

      expect((await revoke(one.url, account.token, account.tokenId)).body.data.revokeAccessToken.status).toBe(
        'REVOKED',
      );
      const revokedAt = Date.now();
      expect((await request(one.url, 'GET', '/v1/me', { token: account.token })).status).toBe(401);
      let status = 200;
      while (status === 200 && Date.now() - revokedAt < VERIFIED_TOKEN_TTL_MS) {
        status = (await request(two.url, 'GET', '/v1/me', { token: account.token })).status;
        if (status === 200) await new Promise((r) => setTimeout(r, 10));
      }
      expect(status).toBe(401);
      // Well inside the cache's lifetime: the pub/sub told the other process, the TTL did not.
      expect(Date.now() - revokedAt).toBeLessThan(1_000);
    },
    60_000,
  );
});

describe('the verified-token cache itself', () => {
  it('keeps its token-id index no larger than the cache', async () => {
    const { VerifiedTokens } = await import('../../src/domains/accounts/verified-tokens.ts');
    const cache = new VerifiedTokens(async () => {});
    const index = (cache as unknown as { hashes: Map<string, string> }).hashes;
    const entries = (cache as unknown as { entries: { set(k: string, v: unknown): void; clear(): void } })
      .entries;
    const principal = (tokenId: string) => ({ accountId: 'a', scopes: new Set(), tokenId, tokenKind: 'pat' });
    for (const id of ['t1', 't2']) {
      index.set(id, `h-${id}`);
      entries.set(`h-${id}`, { principal: principal(id), expiresAt: null });
    }
    entries.clear();
    expect(index.size).toBe(0);
  });
});
