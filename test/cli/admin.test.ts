import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestDatabase } from '../support/database.ts';
import { request } from '../support/http.ts';

const run = promisify(execFile);

describe('operator CLI (npm run admin)', () => {
  let app: TestApp;
  let databaseUrl: string;

  beforeAll(async () => {
    app = await startTestApp();
    databaseUrl = app.services.config.DATABASE_URL!;
  });
  afterAll(() => app.close());

  // process.execPath is the Node that runs the tests: the pinned Node 24, as `npm run admin` uses.
  const admin = (...args: string[]) =>
    run(process.execPath, ['src/cli/admin.ts', ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });

  it('account:create prints one JSON line whose token works at once', async () => {
    const { stdout } = await admin(
      'account:create',
      '--email',
      'Cli.User@Example.com',
      '--first-name',
      'Cli',
      '--credits',
      '12',
      '--insider',
    );
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]!);
    expect(Object.keys(created).sort()).toEqual(['accountId', 'email', 'token']);
    expect(created.email).toBe('cli.user@example.com');
    const me = await request(app.url, 'GET', '/v1/me', { token: created.token });
    expect(me.body.profile).toMatchObject({ id: created.accountId, first_name: 'Cli', is_insider: true });
    const credits = await request(app.url, 'GET', '/v1/me/credits', { token: created.token });
    expect(credits.body.balance).toBe(12);
  });

  it('refuses a taken email and writes nothing', async () => {
    await admin('account:create', '--email', 'taken@example.com');
    const failure = await admin('account:create', '--email', 'taken@example.com', '--credits', '5').catch(
      (e) => e,
    );
    expect(failure.code).toBe(1);
    expect(JSON.parse(failure.stderr.trim().split('\n').at(-1))).toMatchObject({ code: 'email_taken' });
  });

  it('token:create with scopes and expiry, token:revoke, credits:grant', async () => {
    const created = JSON.parse((await admin('account:create', '--email', 'ops@example.com')).stdout);
    const token = JSON.parse(
      (
        await admin(
          'token:create',
          '--email',
          'ops@example.com',
          '--scopes',
          'svc:mcp,svc:fraud',
          '--expires',
          '1y',
        )
      ).stdout,
    );
    expect(token.scopes).toEqual(['svc:mcp', 'svc:fraud']);
    expect(new Date(token.expiresAt).getTime()).toBeGreaterThan(Date.now() + 364 * 86_400_000);
    const grant = JSON.parse(
      (await admin('credits:grant', '--account', created.accountId, '--credits', '30', '--ref', 'promo:x'))
        .stdout,
    );
    expect(grant.balance).toBe(30);
    expect((await request(app.url, 'GET', '/v1/me', { token: token.token })).status).toBe(200);
    await admin('token:revoke', '--token-id', token.tokenId);
    expect((await request(app.url, 'GET', '/v1/me', { token: token.token })).status).toBe(401);
  });

  it('account:create --password stores an argon2id hash and refuses a weak password', async () => {
    const password = 'a long operator password';
    await admin('account:create', '--email', 'pw@example.com', '--password', password);
    const [row] = await app
      .em()
      .execute<{ password_hash: string }[]>(
        `select password_hash from accounts where email = 'pw@example.com'`,
      );
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    const { verifyPassword } = await import('../../src/domains/accounts/password.ts');
    expect(await verifyPassword(row!.password_hash, password)).toBe(true);
    const weak = await admin('account:create', '--email', 'weak@example.com', '--password', 'short').catch(
      (e) => e,
    );
    expect(weak.code).toBe(1);
    expect(JSON.parse(weak.stderr.trim().split('\n').at(-1))).toMatchObject({ code: 'weak_password' });
    expect(weak.stderr).not.toContain('short"');
  });

  it('partner:create prints {clientId, provenance}; partner:list shows it; partner:disable refuses its flow', async () => {
    const { stdout } = await admin(
      'partner:create',
      '--name',
      'Label App',
      '--redirect-uri',
      'https://label.example/cb',
      '--provenance',
      'LABELAPP',
    );
    const created = JSON.parse(stdout);
    expect(Object.keys(created).sort()).toEqual(['clientId', 'provenance']);
    expect(created).toMatchObject({ clientId: expect.stringMatching(/^tbp_/), provenance: 'LABELAPP' });
    const defaulted = JSON.parse(
      (await admin('partner:create', '--name', 'Beat Lab 2', '--redirect-uri', 'https://b.example/cb'))
        .stdout,
    );
    expect(defaulted.provenance).toBe('BEAT_LAB_2');
    const listed = JSON.parse((await admin('partner:list')).stdout);
    expect(listed.partners.map((p: { clientId: string }) => p.clientId)).toContain(created.clientId);

    const attempt = () =>
      request(app.url, 'POST', '/v1/auth/authorize', {
        body: {
          email: 'nobody@example.com',
          password: 'whatever password',
          client_id: created.clientId,
          redirect_uri: 'https://label.example/cb',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        },
      });
    expect((await attempt()).body.code).toBe('invalid_credentials');
    const disabled = JSON.parse((await admin('partner:disable', '--client-id', created.clientId)).stdout);
    expect(disabled.disabledAt).toEqual(expect.any(String));
    expect((await attempt()).body.code).toBe('invalid_client');
  });

  it('rejects bad input with a usage message and exit code 2 or 1', async () => {
    const unknown = await admin('nope').catch((e) => e);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage: npm run admin');
    const badScope = await admin('account:create', '--email', 'x@example.com', '--scopes', 'svc:root').catch(
      (e) => e,
    );
    expect(badScope.code).toBe(1);
    expect(badScope.stderr).toContain('svc:root');
  });

  it('works on a database it has never seen (migrates first)', async () => {
    const fresh = await createTestDatabase('cli');
    try {
      const { stdout } = await run(
        process.execPath,
        ['src/cli/admin.ts', 'account:create', '--email', 'first@example.com'],
        {
          env: { ...process.env, DATABASE_URL: fresh.url },
        },
      );
      expect(JSON.parse(stdout).token).toMatch(/^svc_pat_/);
    } finally {
      await fresh.drop();
    }
  });
});
