import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/platform/free-port.ts';

/** Debian's OpenSSH server (`openssh-server`, installed by `.ci/run`). */
const SSHD = '/usr/sbin/sshd';

export interface SftpServer {
  host: string;
  port: number;
  /** The user the tests log in as (the one running them: root on CI and here). */
  username: string;
  /** A user without privileges the same key logs in as (`nobody`): root-owned directories refuse it writes. */
  unprivilegedUser: string;
  /** The directory served as the connections' root (a real directory on this machine). */
  root: string;
  /** The host key's fingerprint as OpenSSH prints it (`SHA256:…`). */
  hostKey: string;
  /** A private key (OpenSSH format) whose public half is authorized. */
  privateKey: string;
  /** Path of that private key file. */
  privateKeyFile: string;
  /** What sshd has logged so far (LogLevel DEBUG1, on stderr). */
  log(): string;
  /** Kills the per-connection sshd processes (the sessions), leaving the listener up. */
  dropSessions(): void;
  close(): Promise<void>;
}

function keygen(file: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'tributary-test', '-f', file]);
}

/** A private key of a fresh pair that no server here authorizes. */
export function unauthorizedPrivateKey(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tributary-key-'));
  try {
    keygen(path.join(dir, 'key'));
    return readFileSync(path.join(dir, 'key'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function fingerprint(publicKeyFile: string): string {
  const line = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', publicKeyFile], { encoding: 'utf8' });
  const match = /SHA256:[A-Za-z0-9+/]{43}/.exec(line);
  if (!match) throw new Error(`no SHA256 fingerprint in: ${line}`);
  return match[0];
}

/** The pids of `pid`'s child processes. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A real OpenSSH server with `internal-sftp` on a free loopback port, in the foreground with its own host
 * key, configuration and authorized key in a temporary directory. Passwords are checked against the
 * system's (without PAM): the test user has none that any test knows, so every password fails.
 */
export async function startSftpServer(): Promise<SftpServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tributary-sftp-'));
  // Reachable by `nobody` (the unprivileged user), which sshd reads authorized_keys as.
  chmodSync(dir, 0o755);
  const root = path.join(dir, 'root');
  mkdirSync(root);
  // Privilege separation needs this directory (systemd makes it when sshd runs as a service).
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const hostKeyFile = path.join(dir, 'host_ed25519');
  const clientKeyFile = path.join(dir, 'client_ed25519');
  keygen(hostKeyFile);
  keygen(clientKeyFile);
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(`${clientKeyFile}.pub`), { mode: 0o644 });
  const port = await freePort();
  const config = path.join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `HostKey ${hostKeyFile}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'Subsystem sftp internal-sftp',
      'ForceCommand internal-sftp',
      'PubkeyAuthentication yes',
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      'PermitRootLogin yes',
      'AllowTcpForwarding no',
      'X11Forwarding no',
      'LogLevel DEBUG1',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (output.length < 4 * 1024 * 1024) output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', (error) => {
    output += `\nspawn failed: ${error.message}`;
  });
  const deadline = Date.now() + 10_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`sshd did not start on port ${port}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const dropSessions = () => {
    for (const pid of childrenOf(child.pid!)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  return {
    host: '127.0.0.1',
    port,
    username: execFileSync('id', ['-un'], { encoding: 'utf8' }).trim(),
    unprivilegedUser: 'nobody',
    root,
    hostKey: fingerprint(`${hostKeyFile}.pub`),
    privateKey: readFileSync(clientKeyFile, 'utf8'),
    privateKeyFile: clientKeyFile,
    log: () => output,
    dropSessions,
    close: async () => {
      dropSessions();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
