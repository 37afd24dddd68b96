import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../src/platform/free-port.ts';
import {
  AuthenticationFailedError,
  ConnectionLostError,
  HostKeyMismatchError,
  openSftp,
  PermissionDeniedError,
  type SftpTarget,
  UnreachableError,
} from '../../../src/platform/sftp/index.ts';
import { type SftpServer, startSftpServer, unauthorizedPrivateKey } from '../../support/sftp-server.ts';

const MB = 1024 * 1024;

describe('SFTP transport against a real OpenSSH server', () => {
  let server: SftpServer;
  const target = (overrides: Partial<SftpTarget> = {}): SftpTarget => ({
    host: server.host,
    port: server.port,
    username: server.username,
    root: server.root,
    hostKey: server.hostKey,
    auth: { method: 'private_key', privateKey: server.privateKey },
    ...overrides,
  });
  const local = (...parts: string[]) => path.join(server.root, ...parts);

  beforeAll(async () => {
    server = await startSftpServer();
  });
  afterAll(() => server?.close());

  it('uploads a multi-MB stream under a temporary name and renames it into place', async () => {
    const session = await openSftp(target());
    try {
      await session.mkdirp('batch/release-1/resources');
      expect(statSync(local('batch/release-1/resources')).isDirectory()).toBe(true);
      const final = local('batch/release-1/resources/audio.flac');
      const temporary = local('batch/release-1/resources/.audio.flac.part');
      const hash = createHash('sha256');
      const seen: { final: boolean; temporary: boolean }[] = [];
      async function* source() {
        for (let i = 0; i < 48; i++) {
          const chunk = randomBytes(MB / 8);
          hash.update(chunk);
          yield chunk;
          // Let the writes land, then look at the server's directory as the store would.
          if (i % 8 === 7) {
            await new Promise((resolve) => setTimeout(resolve, 30));
            seen.push({ final: existsSync(final), temporary: existsSync(temporary) });
          }
        }
      }
      const { bytes, sha256 } = await session.upload('batch/release-1/resources/audio.flac', source());
      expect(bytes).toBe(6 * MB);
      expect(seen.length).toBe(6);
      expect(seen.every((each) => !each.final && each.temporary)).toBe(true);
      expect(existsSync(temporary)).toBe(false);
      const expected = hash.digest('hex');
      expect(sha256).toBe(expected);
      expect(createHash('sha256').update(readFileSync(final)).digest('hex')).toBe(expected);
      expect(await session.size('batch/release-1/resources/audio.flac')).toBe(6 * MB);
    } finally {
      await session.close();
    }
  });

  it('sends a source of 1 MiB chunks in writes of at most 64 KiB, at most 16 unanswered', async () => {
    const session = await openSftp(target());
    // The session's ssh2 SFTP channel, watched: each write request's length and how many await an answer.
    const sftp = (session as unknown as { sftp: { write: (...args: unknown[]) => void } }).sftp;
    const write = sftp.write.bind(sftp);
    const lengths: number[] = [];
    let unanswered = 0;
    let mostUnanswered = 0;
    sftp.write = (...args: unknown[]) => {
      lengths.push(args[3] as number);
      mostUnanswered = Math.max(mostUnanswered, ++unanswered);
      const done = args[5] as (...result: unknown[]) => void;
      write(...args.slice(0, 5), (...result: unknown[]) => {
        unanswered--;
        done(...result);
      });
    };
    try {
      const data = randomBytes(3 * MB + 100);
      const chunks = [0, 1, 2, 3].map((i) => data.subarray(i * MB, (i + 1) * MB));
      const { bytes, sha256 } = await session.upload('big-chunks.bin', chunks);
      expect(bytes).toBe(data.length);
      expect(sha256).toBe(createHash('sha256').update(data).digest('hex'));
      expect(readFileSync(local('big-chunks.bin')).equals(data)).toBe(true);
      expect(lengths).toHaveLength(3 * 16 + 1);
      expect(Math.max(...lengths)).toBe(64 * 1024);
      expect(mostUnanswered).toBeLessThanOrEqual(16);
    } finally {
      await session.close();
    }
  });

  it('resumes by size: a complete file is skipped, a different size is sent again', async () => {
    const session = await openSftp(target());
    try {
      mkdirSync(local('resume'), { recursive: true });
      writeFileSync(local('resume/a.flac'), Buffer.alloc(1000, 1));
      let opened = 0;
      const open = (size: number) => () => {
        opened++;
        return [Buffer.alloc(size, 2)];
      };
      expect(await session.uploadUnlessComplete('resume/a.flac', 1000, open(1000))).toBe('skipped');
      expect(opened).toBe(0);
      expect(await session.uploadUnlessComplete('resume/a.flac', 1200, open(1200))).toBe('uploaded');
      expect(opened).toBe(1);
      expect(readFileSync(local('resume/a.flac'))).toEqual(Buffer.alloc(1200, 2));
      expect(await session.uploadUnlessComplete('resume/missing.flac', 10, open(10))).toBe('uploaded');
      expect(await session.size('resume/nothing-here')).toBeNull();
    } finally {
      await session.close();
    }
  });

  it('lists a directory, reads a small file, renames over a file and deletes', async () => {
    mkdirSync(local('acks'), { recursive: true });
    writeFileSync(local('acks/ack-1.xml'), '<Ack>1</Ack>');
    writeFileSync(local('acks/ack-2.xml'), '<Ack>2</Ack>');
    mkdirSync(local('acks/old'));
    const session = await openSftp(target());
    try {
      const entries = await session.list('acks');
      expect(entries.map((each) => [each.name, each.isDirectory, each.size])).toEqual([
        ['ack-1.xml', false, 12],
        ['ack-2.xml', false, 12],
        ['old', true, expect.any(Number)],
      ]);
      expect((await session.readFile('acks/ack-1.xml')).toString()).toBe('<Ack>1</Ack>');
      await expect(session.readFile('acks/ack-1.xml', 5)).rejects.toThrow(/has 12 bytes, more than the 5/);
      await session.rename('acks/ack-1.xml', 'acks/ack-2.xml');
      expect(readFileSync(local('acks/ack-2.xml'), 'utf8')).toBe('<Ack>1</Ack>');
      await session.delete('acks/ack-2.xml');
      expect(existsSync(local('acks/ack-2.xml'))).toBe(false);
      await expect(session.list('..')).resolves.toEqual(await session.list('.'));
      expect(session.remotePath('../../etc/passwd')).toBe(path.posix.join(server.root, 'etc/passwd'));
    } finally {
      await session.close();
    }
  });

  it('refuses a host key that does not match, before any authentication', async () => {
    const wrong = `SHA256:${createHash('sha256').update('another key').digest('base64').replace(/=+$/, '')}`;
    const before = server.log().length;
    const error = await openSftp(target({ hostKey: wrong })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostKeyMismatchError);
    expect((error as Error).message).toBe(
      `The SFTP server at 127.0.0.1:${server.port} presented the ssh-ed25519 host key ${server.hostKey}, not the expected ${wrong}: ` +
        'the connection was refused before authenticating. If the store changed its host key, confirm the new ' +
        'fingerprint with the store and connect the store again with it as --host-key.',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const logged = server.log().slice(before);
    expect(logged).toMatch(/Connection from 127\.0\.0\.1/);
    expect(logged).not.toMatch(/userauth-request|Accepted|Failed (publickey|password)/);
    // What a connection that gets as far as authenticating logs:
    const beforeGood = server.log().length;
    await (await openSftp(target())).close();
    expect(server.log().slice(beforeGood)).toMatch(/userauth-request[\s\S]*Accepted publickey/);
  });

  it('names an authentication failure for a wrong key and a wrong password', async () => {
    const privateKey = unauthorizedPrivateKey();
    const before = server.log().length;
    const byKey = await openSftp(target({ auth: { method: 'private_key', privateKey } })).catch((e) => e);
    expect(byKey).toBeInstanceOf(AuthenticationFailedError);
    expect(byKey.message).toBe(
      `The SFTP server at 127.0.0.1:${server.port} refused to authenticate user "${server.username}" with the private key: ` +
        `check the user name and that the store installed the public half of this private key for "${server.username}", then connect the store again.`,
    );
    const byPassword = await openSftp(
      target({ auth: { method: 'password', password: 'not the password' } }),
    ).catch((e) => e);
    expect(byPassword).toBeInstanceOf(AuthenticationFailedError);
    expect(byPassword.message).toContain('with the password: check the user name and the password');
    expect(server.log().slice(before)).toMatch(/Failed password for/);
  });

  it('names an unreachable server', async () => {
    const closed = await freePort();
    const error = await openSftp(target({ port: closed })).catch((e) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error.message).toBe(
      `Cannot reach the SFTP server at 127.0.0.1:${closed}: the connection was refused (ECONNREFUSED): nothing listens on that port. ` +
        "Check the host and port of the connection and that this machine may connect to it (firewall, the store's allow-list).",
    );
    expect(error.retryable).toBe(true);
  });

  it('names a permission the server refuses', async () => {
    mkdirSync(local('read-only'), { mode: 0o755 });
    const session = await openSftp(target({ username: server.unprivilegedUser }));
    try {
      expect(await session.list('read-only')).toEqual([]);
      const error = await session.upload('read-only/audio.flac', [Buffer.from('x')]).catch((e) => e);
      expect(error).toBeInstanceOf(PermissionDeniedError);
      expect(error.message).toBe(
        `The SFTP server at 127.0.0.1:${server.port} refused to write ${server.root}/read-only/.audio.flac.part for user "nobody" (permission denied): ask the store to let this user write under the connection's root, or fix the root in the connection's URL.`,
      );
      expect(existsSync(local('read-only/audio.flac'))).toBe(false);
    } finally {
      await session.close();
    }
  });

  it('a source that fails mid-upload rejects with its error and leaves nothing behind', async () => {
    const session = await openSftp(target());
    try {
      await session.mkdirp('broken');
      async function* source() {
        yield randomBytes(MB);
        throw new Error('the storage read failed');
      }
      await expect(session.upload('broken/audio.flac', source())).rejects.toThrow('the storage read failed');
      expect(await session.list('broken')).toEqual([]);
      expect(session.lost).toBe(false);
    } finally {
      await session.close();
    }
  });

  it('a server that never answers is unreachable after the connect time-out', async () => {
    const silent = createServer(() => {}).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    try {
      const started = Date.now();
      const error = await openSftp(target({ port }), { connectMs: 500 }).catch((e) => e);
      expect(error).toBeInstanceOf(UnreachableError);
      expect(error.message).toContain(
        `at 127.0.0.1:${port}: no answer within 0.5 s waiting for an SSH answer.`,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.close();
    }
  });

  it('a connection dropped mid-file fails with ConnectionLostError and leaves no final-named file', async () => {
    const session = await openSftp(target());
    mkdirSync(local('dropped'), { recursive: true });
    async function* source() {
      for (let i = 0; i < 80; i++) {
        if (i === 16) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          server.dropSessions();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        yield randomBytes(MB / 8);
      }
    }
    const error = await session.upload('dropped/audio.flac', source()).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionLostError);
    expect(error.message).toMatch(
      new RegExp(
        `^The connection to the SFTP server at 127\\.0\\.0\\.1:${server.port} was lost while trying to write .*/dropped/\\.audio\\.flac\\.part \\(.+\\); no file was left under its final name\\.`,
      ),
    );
    expect(existsSync(local('dropped/audio.flac'))).toBe(false);
    expect(session.lost).toBe(true);
    await expect(session.size('dropped/audio.flac')).rejects.toBeInstanceOf(ConnectionLostError);
    await session.close();
    // The server still takes new connections.
    const again = await openSftp(target());
    expect(await again.size('dropped/audio.flac')).toBeNull();
    await again.close();
  });
});
