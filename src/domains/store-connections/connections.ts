import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../platform/config.ts';
import { AppError, invalidRequest, notFound } from '../../platform/errors.ts';
import { open, seal } from '../../platform/secret-box.ts';
import {
  openSftp,
  privateKeyProblem,
  SftpError,
  type SftpTarget,
  type SftpTimeouts,
} from '../../platform/sftp/index.ts';
import { requireSenderIdentity } from './sender.ts';
import { parseSftpUrl } from './sftp-url.ts';
import { type AuthMethod, StoreConnection } from './store-connection.entity.ts';
import {
  catalogStore,
  checkChoreography,
  checkDpid,
  checkHostKey,
  checkRecipientName,
} from './validation.ts';

export type Credential =
  | { method: 'private_key'; privateKey: string }
  | { method: 'password'; password: string };

export interface ConnectStoreInput {
  /** A store id or alias of the catalog. */
  store: string;
  sftpUrl: string;
  credential: Credential;
  hostKey: string;
  recipientDpid: string;
  recipientName: string;
  choreography?: string;
}

export interface ConnectStoreOptions {
  /** The secret-box key the credential is sealed with (the one webhook secrets use). */
  secretKey: Uint8Array;
  /** The sender's identity settings: messages to a connected store need them. */
  config: Pick<AppConfig, 'DDEX_SENDER_DPID' | 'DDEX_SENDER_NAME'>;
}

function checkCredential(credential: Credential): string {
  if (credential.method === 'password') {
    if (!credential.password) throw invalidRequest('The password is empty.', undefined, 'invalid_credential');
    return credential.password;
  }
  const problem = privateKeyProblem(credential.privateKey);
  if (problem) {
    throw invalidRequest(
      `The private key cannot be used: ${problem}.`,
      [{ path: 'private_key', message: problem }],
      'invalid_credential',
    );
  }
  return credential.privateKey;
}

/**
 * Connects a store, or replaces its connection: refuses while the sender's identity is not configured,
 * validates everything, seals the credential and stores it. Nothing is sent to the server (`testStoreConnection` does that).
 */
export async function connectStore(
  em: EntityManager,
  input: ConnectStoreInput,
  options: ConnectStoreOptions,
): Promise<StoreConnection> {
  requireSenderIdentity(options.config);
  const store = catalogStore(input.store);
  const location = parseSftpUrl(input.sftpUrl);
  const values = {
    host: location.host,
    port: location.port,
    username: location.username,
    rootPath: location.root,
    authMethod: input.credential.method as AuthMethod,
    secretSealed: seal(checkCredential(input.credential), options.secretKey),
    hostKeyFingerprint: checkHostKey(input.hostKey),
    recipientDpid: checkDpid(input.recipientDpid),
    recipientName: checkRecipientName(input.recipientName),
    choreography: checkChoreography(input.choreography),
  };
  const existing = await em.findOne(StoreConnection, { storeId: store.storeId });
  if (existing) {
    em.assign(existing, values);
    await em.flush();
    return existing;
  }
  const connection = em.create(StoreConnection, { storeId: store.storeId, ...values });
  await em.flush();
  return connection;
}

export async function listStoreConnections(em: EntityManager): Promise<StoreConnection[]> {
  return em.find(StoreConnection, {}, { orderBy: { storeId: 'asc' } });
}

export async function getStoreConnection(
  em: EntityManager,
  store: string | number,
): Promise<StoreConnection> {
  const { storeId, name } = catalogStore(store);
  const connection = await em.findOne(StoreConnection, { storeId }, { populate: ['secretSealed'] });
  if (!connection) {
    throw notFound(
      `${name} (store ${storeId}) is not connected: it is delivered by the sandbox.`,
      'store_not_connected',
    );
  }
  return connection;
}

/** Removes a store's connection and its sealed credential; the store goes back to the sandbox. */
export async function disconnectStore(em: EntityManager, store: string | number): Promise<StoreConnection> {
  const connection = await getStoreConnection(em, store);
  em.remove(connection);
  await em.flush();
  return connection;
}

/** What `openSftp` needs for a connection, its credential unsealed. */
export function sftpTargetOf(connection: StoreConnection, secretKey: Uint8Array): SftpTarget {
  const secret = open(connection.secretSealed as string, secretKey);
  return {
    host: connection.host,
    port: connection.port,
    username: connection.username,
    root: connection.rootPath,
    hostKey: connection.hostKeyFingerprint,
    auth:
      connection.authMethod === 'private_key'
        ? { method: 'private_key', privateKey: secret }
        : { method: 'password', password: secret },
  };
}

/** An SFTP failure in the platform's error vocabulary (upstream: the store's server). */
export function sftpAppError(error: SftpError): AppError {
  return new AppError('upstream_error', `sftp_${error.kind}`, error.message, { cause: error });
}

/**
 * Logs in to the store's server as a delivery would (host key pinned, the sealed credential) and lists
 * the root directory. Resolves with what was checked; rejects with the exact failure.
 */
export async function testStoreConnection(
  em: EntityManager,
  store: string | number,
  options: { secretKey: Uint8Array; timeouts?: SftpTimeouts },
): Promise<{ storeId: number; ok: true; message: string }> {
  const connection = await getStoreConnection(em, store);
  const target = sftpTargetOf(connection, options.secretKey);
  try {
    const session = await openSftp(target, options.timeouts);
    try {
      const root = await session.stat('.');
      if (!root?.isDirectory) {
        throw new SftpError(
          'not_found',
          `Logged in, but the root ${connection.rootPath} is not a directory on the server: fix the root in the connection's URL.`,
        );
      }
      const entries = await session.list('.');
      return {
        storeId: connection.storeId,
        ok: true,
        message: `Logged in to ${connection.host}:${connection.port} as ${connection.username} (host key ${connection.hostKeyFingerprint} verified); ${connection.rootPath} holds ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}.`,
      };
    } finally {
      await session.close();
    }
  } catch (error) {
    throw error instanceof SftpError ? sftpAppError(error) : error;
  }
}
