/**
 * What can go wrong talking to an SFTP server, one class per cause, each with a message that says what
 * to fix. `retryable` tells a delivery step whether trying again later can help without an operator.
 */
export type SftpErrorKind =
  | 'host_key_mismatch'
  | 'authentication_failed'
  | 'unreachable'
  | 'handshake_failed'
  | 'permission_denied'
  | 'connection_lost'
  | 'not_found'
  | 'remote_failure';

export class SftpError extends Error {
  override name = 'SftpError';
  readonly kind: SftpErrorKind;
  readonly retryable: boolean;

  constructor(kind: SftpErrorKind, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.retryable = options.retryable ?? false;
  }
}

/** The server's host key is not the one the connection pins: nothing was sent, no credentials offered. */
export class HostKeyMismatchError extends SftpError {
  override name = 'HostKeyMismatchError';
  readonly expected: string;
  readonly presented: string;

  constructor(server: string, expected: string, presented: string, keyType: string) {
    super(
      'host_key_mismatch',
      `The SFTP server at ${server} presented the ${keyType} host key ${presented}, not the expected ${expected}: ` +
        'the connection was refused before authenticating. If the store changed its host key, confirm the new ' +
        'fingerprint with the store and connect the store again with it as --host-key.',
    );
    this.expected = expected;
    this.presented = presented;
  }
}

export class AuthenticationFailedError extends SftpError {
  override name = 'AuthenticationFailedError';
  constructor(server: string, username: string, method: 'private_key' | 'password', cause?: unknown) {
    const fix =
      method === 'private_key'
        ? `check the user name and that the store installed the public half of this private key for "${username}"`
        : `check the user name and the password given with --password-env`;
    super(
      'authentication_failed',
      `The SFTP server at ${server} refused to authenticate user "${username}" with the ${method === 'private_key' ? 'private key' : 'password'}: ${fix}, then connect the store again.`,
      { cause },
    );
  }
}

export class UnreachableError extends SftpError {
  override name = 'UnreachableError';
  constructor(server: string, reason: string, cause?: unknown) {
    super(
      'unreachable',
      `Cannot reach the SFTP server at ${server}: ${reason}. Check the host and port of the connection and that this machine may connect to it (firewall, the store's allow-list).`,
      { retryable: true, cause },
    );
  }
}

export class PermissionDeniedError extends SftpError {
  override name = 'PermissionDeniedError';
  constructor(server: string, username: string, action: string, path: string, cause?: unknown) {
    super(
      'permission_denied',
      `The SFTP server at ${server} refused to ${action} ${path} for user "${username}" (permission denied): ask the store to let this user write under the connection's root, or fix the root in the connection's URL.`,
      { cause },
    );
  }
}

/** The connection dropped or stopped answering; what was being written never got its final name. */
export class ConnectionLostError extends SftpError {
  override name = 'ConnectionLostError';
  constructor(server: string, action: string, path: string, reason: string, cause?: unknown) {
    super(
      'connection_lost',
      `The connection to the SFTP server at ${server} was lost while trying to ${action} ${path} (${reason}); no file was left under its final name. Try again; if it keeps happening, check the network to the server.`,
      { retryable: true, cause },
    );
  }
}
