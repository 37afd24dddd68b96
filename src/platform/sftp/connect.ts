import ssh2 from 'ssh2';
import { AuthenticationFailedError, HostKeyMismatchError, SftpError, UnreachableError } from './errors.ts';
import { fingerprintOf, keyTypeOf, parseHostKeyFingerprint, sameFingerprint } from './host-key.ts';
import { SftpSession } from './session.ts';

/** Where and as whom to connect; `root` is the directory every session path is relative to. */
export interface SftpTarget {
  host: string;
  port: number;
  username: string;
  root: string;
  /** The server's host key fingerprint, `SHA256:<base64>`: any other key refuses the connection. */
  hostKey: string;
  auth: { method: 'private_key'; privateKey: string } | { method: 'password'; password: string };
}

export interface SftpTimeouts {
  /** TCP connect, key exchange and authentication together. */
  connectMs?: number;
  /** How long one request (a stat, a write's acknowledgement…) may go unanswered before the connection is dropped. */
  operationMs?: number;
  /** Keepalive pings on an idle connection; three unanswered in a row drop it. */
  keepaliveMs?: number;
}

const DEFAULT_TIMEOUTS: Required<SftpTimeouts> = {
  connectMs: 20_000,
  operationMs: 60_000,
  keepaliveMs: 10_000,
};

/** Socket error codes that mean the server could not be reached, with the words an operator reads. */
const UNREACHABLE_REASONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (ECONNREFUSED): nothing listens on that port',
  ETIMEDOUT: 'the connection timed out (ETIMEDOUT)',
  EHOSTUNREACH: 'no route to the host (EHOSTUNREACH)',
  ENETUNREACH: 'the network is unreachable (ENETUNREACH)',
  ECONNRESET: 'the connection was reset before the SSH handshake (ECONNRESET)',
  ENOTFOUND: 'the host name does not resolve (ENOTFOUND)',
  EAI_AGAIN: 'the host name could not be resolved now (EAI_AGAIN)',
};

interface Ssh2Error extends Error {
  level?: string;
  code?: string | number;
}

/**
 * Opens an SFTP session. The server's host key is checked against `target.hostKey` during the key
 * exchange, before any credential is offered; a different key ends the handshake with
 * HostKeyMismatchError. Every failure is one of the typed errors of `errors.ts`.
 */
export function openSftp(target: SftpTarget, timeouts: SftpTimeouts = {}): Promise<SftpSession> {
  const limits = { ...DEFAULT_TIMEOUTS, ...timeouts };
  const expected = parseHostKeyFingerprint(target.hostKey);
  if (!expected) {
    return Promise.reject(
      new SftpError(
        'host_key_mismatch',
        `The pinned host key "${target.hostKey}" is not a SHA256: fingerprint.`,
      ),
    );
  }
  const server = `${target.host}:${target.port}`;
  const client = new ssh2.Client();
  let presented: { fingerprint: string; keyType: string } | null = null;
  let hostKeyMatched = false;

  const classify = (error: Ssh2Error): SftpError => {
    if (error instanceof SftpError) return error;
    if (presented && !hostKeyMatched) {
      return new HostKeyMismatchError(server, expected, presented.fingerprint, presented.keyType);
    }
    if (error.level === 'client-authentication') {
      return new AuthenticationFailedError(server, target.username, target.auth.method, error);
    }
    if (error.level === 'client-socket' || error.level === 'client-dns') {
      const code = String(error.code ?? '');
      return new UnreachableError(server, UNREACHABLE_REASONS[code] ?? `${error.message}`, error);
    }
    if (error.level === 'client-timeout') {
      const stage = presented ? 'the SSH handshake and authentication' : 'an SSH answer';
      return new UnreachableError(
        server,
        `no answer within ${limits.connectMs / 1000} s waiting for ${stage}`,
        error,
      );
    }
    return new SftpError(
      'handshake_failed',
      `The SSH handshake with ${server} failed (${error.message}): check that the URL names an SSH server.`,
      { cause: error },
    );
  };

  return new Promise<SftpSession>((resolve, reject) => {
    let settled = false;
    const fail = (error: Ssh2Error) => {
      if (settled) return;
      settled = true;
      client.destroy();
      reject(classify(error));
    };
    client.on('error', fail);
    client.once('close', () => fail(new Error('the server closed the connection during the handshake')));
    client.once('ready', () => {
      const timer = setTimeout(
        () =>
          fail(
            new SftpError(
              'handshake_failed',
              `The SFTP subsystem of ${server} did not start within ${limits.operationMs / 1000} s.`,
            ),
          ),
        limits.operationMs,
      );
      client.sftp((error, sftp) => {
        clearTimeout(timer);
        if (error) {
          return fail(
            new SftpError(
              'handshake_failed',
              `The server at ${server} accepted the login but refused the SFTP subsystem (${error.message}): ask the store to enable SFTP for "${target.username}".`,
              { cause: error },
            ),
          );
        }
        if (settled) return sftp.end();
        settled = true;
        client.removeListener('error', fail);
        resolve(
          new SftpSession(client, sftp, { server, username: target.username, root: target.root, ...limits }),
        );
      });
    });
    try {
      client.connect({
        host: target.host,
        port: target.port,
        username: target.username,
        ...(target.auth.method === 'password'
          ? { password: target.auth.password }
          : { privateKey: target.auth.privateKey }),
        tryKeyboard: false,
        hostVerifier: (key) => {
          presented = { fingerprint: fingerprintOf(key), keyType: keyTypeOf(key) };
          hostKeyMatched = sameFingerprint(presented.fingerprint, expected);
          return hostKeyMatched;
        },
        readyTimeout: limits.connectMs,
        keepaliveInterval: limits.keepaliveMs,
        keepaliveCountMax: 3,
      });
      // Requests are small and answered one by one: without this, Nagle's algorithm holds each ~40 ms.
      client.setNoDelay(true);
    } catch (error) {
      // ssh2 throws at once on a private key it cannot parse.
      fail(
        new SftpError(
          'authentication_failed',
          `The private key cannot be used: ${(error as Error).message}.`,
          {
            cause: error,
          },
        ),
      );
    }
  });
}
