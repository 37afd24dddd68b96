import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/platform/free-port.ts';
import { open } from '../../src/platform/secret-box.ts';
import { createTestDatabase } from '../support/database.ts';
import { type SftpServer, startSftpServer } from '../support/sftp-server.ts';

const run = promisify(execFile);
const SENDER = { DDEX_SENDER_DPID: 'PADPIDA2026TRB0001', DDEX_SENDER_NAME: 'Tributary' };
const PASSWORD = 'a store password 4Xq';

interface Failure {
  code: number;
  stdout: string;
  stderr: string;
}

describe('store connections over SFTP (npm run admin -- store:…)', () => {
  let server: SftpServer;
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;
  const secretKey = randomBytes(32);

  beforeAll(async () => {
    [server, database] = await Promise.all([startSftpServer(), createTestDatabase('store_connections')]);
    dataDir = mkdtempSync(path.join(tmpdir(), 'tributary-store-connections-'));
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const environment = (extra: Record<string, string | undefined> = {}) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      WEBHOOK_SECRET_KEY: secretKey.toString('base64'),
      STORE_PASSWORD: PASSWORD,
      ...SENDER,
      ...extra,
    };
    for (const [key, value] of Object.entries(extra)) if (value === undefined) delete env[key];
    return env;
  };
  const admin = (args: string[], extra?: Record<string, string | undefined>) =>
    run(process.execPath, ['src/cli/admin.ts', ...args], { env: environment(extra) });
  const failing = (args: string[], extra?: Record<string, string | undefined>) =>
    admin(args, extra).then(
      () => {
        throw new Error('expected the command to fail');
      },
      (error: Failure) => error,
    );
  const lastError = (failure: Failure) => JSON.parse(failure.stderr.trim().split('\n').at(-1)!);
  const sftpUrl = (port = server.port) => `sftp://${server.username}@127.0.0.1:${port}${server.root}`;
  const connectArgs = (
    overrides: Record<string, string> = {},
    credential = ['--private-key-file', server.privateKeyFile],
  ) => {
    const values: Record<string, string> = {
      store: '301',
      sftp: sftpUrl(),
      'host-key': server.hostKey,
      'recipient-dpid': 'PADPIDA20140000301',
      'recipient-name': 'Spotify',
      ...overrides,
    };
    return [
      'store:connect',
      ...Object.entries(values).flatMap(([key, value]) => [`--${key}`, value]),
      ...credential,
    ];
  };
  const row = async (storeId: number) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const result = await client.query('select * from store_connections where store_id = $1', [storeId]);
      return result.rows[0] as Record<string, unknown> | undefined;
    } finally {
      await client.end();
    }
  };

  it('refuses store:connect while the DDEX sender is not configured, with the fix', async () => {
    const failure = await failing(connectArgs(), {
      DDEX_SENDER_DPID: undefined,
      DDEX_SENDER_NAME: undefined,
    });
    expect(failure.code).toBe(1);
    expect(lastError(failure)).toEqual({
      type: 'invalid_request_error',
      code: 'sender_not_configured',
      message:
        "Messages to a connected store name Tributary's sender, which is not configured: set DDEX_SENDER_DPID (your DDEX party id: PADPIDA and 11 letters or digits) and DDEX_SENDER_NAME (the name stores know you by), then connect the store again.",
    });
    expect(await row(301)).toBeUndefined();
  });

  it('store:connect prints the connection without the secret and stores the key sealed', async () => {
    const { stdout, stderr } = await admin(connectArgs({ choreography: 'batch' }));
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const connection = JSON.parse(lines[0]!);
    expect(connection).toEqual({
      storeId: 301,
      storeName: 'Spotify',
      sftp: `sftp://${server.username}@127.0.0.1:${server.port}${server.root}`,
      auth: 'private_key',
      hostKey: server.hostKey,
      recipientDpid: 'PADPIDA20140000301',
      recipientName: 'Spotify',
      choreography: 'batch',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const keyBody = server.privateKey.split('\n')[1]!;
    expect(stdout + stderr).not.toContain(keyBody);
    const stored = (await row(301))!;
    expect(JSON.stringify(stored)).not.toContain(keyBody);
    expect(stored.secret_sealed).toMatch(/^v1\./);
    expect(open(String(stored.secret_sealed), secretKey)).toBe(server.privateKey);
  });

  it('store:test logs in with the sealed key and says ok', async () => {
    const { stdout } = await admin(['store:test', '--store', 'spotify']);
    expect(JSON.parse(stdout)).toEqual({
      storeId: 301,
      ok: true,
      message: `Logged in to 127.0.0.1:${server.port} as ${server.username} (host key ${server.hostKey} verified); ${server.root} holds 0 entries.`,
    });
  });

  it('store:test gives the exact error for a host key that does not match, and authenticates nothing', async () => {
    const wrong = `SHA256:${randomBytes(32).toString('base64').replace(/=+$/, '')}`;
    await admin(connectArgs({ store: '302', 'host-key': wrong, 'recipient-name': 'Apple Music' }));
    const before = server.log().length;
    const failure = await failing(['store:test', '--store', '302']);
    expect(failure.code).toBe(1);
    expect(lastError(failure)).toEqual({
      type: 'upstream_error',
      code: 'sftp_host_key_mismatch',
      message: `The SFTP server at 127.0.0.1:${server.port} presented the ssh-ed25519 host key ${server.hostKey}, not the expected ${wrong}: the connection was refused before authenticating. If the store changed its host key, confirm the new fingerprint with the store and connect the store again with it as --host-key.`,
    });
    expect(server.log().slice(before)).not.toMatch(/userauth-request|Accepted|Failed/);
  });

  it('a password is read from the named variable, sealed, and a wrong one gives the authentication error', async () => {
    const { stdout } = await admin(
      connectArgs({ store: '303', 'recipient-name': 'iTunes' }, ['--password-env', 'STORE_PASSWORD']),
    );
    expect(JSON.parse(stdout)).toMatchObject({ storeId: 303, auth: 'password' });
    expect(stdout).not.toContain(PASSWORD);
    const stored = (await row(303))!;
    expect(JSON.stringify(stored)).not.toContain(PASSWORD);
    expect(open(String(stored.secret_sealed), secretKey)).toBe(PASSWORD);
    const failure = await failing(['store:test', '--store', '303']);
    expect(lastError(failure)).toEqual({
      type: 'upstream_error',
      code: 'sftp_authentication_failed',
      message: `The SFTP server at 127.0.0.1:${server.port} refused to authenticate user "${server.username}" with the password: check the user name and the password given with --password-env, then connect the store again.`,
    });
    expect(failure.stderr).not.toContain(PASSWORD);
    const unset = await failing(connectArgs({ store: '303' }, ['--password-env', 'NO_SUCH_VARIABLE_HERE']));
    expect(lastError(unset).message).toBe(
      '--password-env NO_SUCH_VARIABLE_HERE: that variable is not set here; export it, then run the command again',
    );
  });

  it('store:test names an unreachable server', async () => {
    const closed = await freePort();
    await admin(connectArgs({ store: '304', sftp: sftpUrl(closed), 'recipient-name': 'Amazon Music' }));
    const failure = await failing(['store:test', '--store', '304']);
    expect(lastError(failure)).toEqual({
      type: 'upstream_error',
      code: 'sftp_unreachable',
      message: `Cannot reach the SFTP server at 127.0.0.1:${closed}: the connection was refused (ECONNREFUSED): nothing listens on that port. Check the host and port of the connection and that this machine may connect to it (firewall, the store's allow-list).`,
    });
  });

  it('refuses bad input with a precise message and writes nothing', async () => {
    // Each option's rules are tested in test/store-connections/validation.test.ts; here, that the CLI
    // reports them.
    const cases: [Record<string, string>, string[] | undefined, string][] = [
      [
        { store: '99999' },
        undefined,
        'No store "99999" in the catalog: give a store id or alias from GET /v1/distribution-stores.',
      ],
      [{ store: '305', sftp: 'sftp://u:pw@h:22/x' }, undefined, 'must not hold a password'],
      [
        { store: '305', 'host-key': 'aa:bb:cc' },
        undefined,
        "--host-key must be the server's host key fingerprint",
      ],
      [
        { store: '305', 'recipient-dpid': 'PADPIDA123' },
        undefined,
        "--recipient-dpid must be the store's DDEX party id",
      ],
      [{ store: '305' }, ['--private-key-file', `${server.privateKeyFile}.pub`], 'it is a public key'],
      [{ store: '305' }, [], 'give exactly one of --private-key-file FILE or --password-env VAR'],
    ];
    for (const [overrides, credential, message] of cases) {
      const failure = await failing(connectArgs(overrides, credential));
      expect(failure.code, message).toBe(1);
      expect(lastError(failure).message, message).toContain(message);
    }
    expect(await row(305)).toBeUndefined();
    // Six CLI processes, one after the other: each starts node and loads the app.
  }, 90_000);

  it('store:connections lists the connections; store:disconnect removes one', async () => {
    const listed = JSON.parse((await admin(['store:connections'])).stdout);
    expect(listed.connections.map((c: { storeId: number }) => c.storeId)).toEqual([301, 302, 303, 304]);
    expect(JSON.stringify(listed)).not.toContain('secret');
    const { stdout } = await admin(['store:disconnect', '--store', '304']);
    expect(JSON.parse(stdout)).toEqual({ storeId: 304, disconnected: true });
    expect(await row(304)).toBeUndefined();
    const again = await failing(['store:test', '--store', '304']);
    expect(lastError(again)).toMatchObject({ code: 'store_not_connected' });
  });

  it('the server does not start while a store is connected and the sender is unset, in one line', async () => {
    const env = environment({
      DDEX_SENDER_DPID: undefined,
      DDEX_SENDER_NAME: undefined,
      PORT: '0',
      LOG_LEVEL: 'warn',
    });
    const failure = await run(process.execPath, ['facades/start.js'], { env, timeout: 60_000 }).then(
      () => {
        throw new Error('expected the server to stop');
      },
      (error: Failure) => error,
    );
    expect(failure.code).toBe(1);
    expect(failure.stderr.trim().split('\n')).toEqual([
      'Stores 301, 302, 303 are connected over SFTP but DDEX_SENDER_DPID and DDEX_SENDER_NAME are not set: set DDEX_SENDER_DPID (your DDEX party id: PADPIDA and 11 letters or digits) and DDEX_SENDER_NAME (the name stores know you by), or disconnect them with npm run admin -- store:disconnect --store <id>.',
    ]);
  }, 90_000);
});
