import { DPID_PATTERN } from '../../platform/config.ts';
import { invalidRequest, notFound } from '../../platform/errors.ts';
import { parseHostKeyFingerprint } from '../../platform/sftp/index.ts';
import { findStore, resolveStoreId, type Store } from '../catalog/index.ts';
import { CHOREOGRAPHIES, type Choreography } from './store-connection.entity.ts';

const MAX_NAME = 200;

const refuse = (path: string, message: string, code = 'invalid_request') =>
  invalidRequest(message, [{ path, message }], code);

/** A store of the catalog, by id or alias. */
export function catalogStore(idOrAlias: string | number): Store {
  const id = resolveStoreId(idOrAlias);
  const store = id === null ? undefined : findStore(id);
  if (!store) {
    throw notFound(
      `No store "${idOrAlias}" in the catalog: give a store id or alias from GET /v1/distribution-stores.`,
      'unknown_store',
    );
  }
  return store;
}

export function checkHostKey(value: string): string {
  const fingerprint = parseHostKeyFingerprint(value);
  if (!fingerprint) {
    throw refuse(
      'host_key',
      `--host-key must be the server's host key fingerprint as OpenSSH prints it, SHA256: and 43 base64 characters (got "${value}"); ask the store, or read it with ssh-keyscan HOST | ssh-keygen -lf - and confirm it with the store.`,
      'invalid_host_key',
    );
  }
  return fingerprint;
}

export function checkDpid(value: string): string {
  const dpid = value.trim();
  if (!DPID_PATTERN.test(dpid)) {
    throw refuse(
      'recipient_dpid',
      `--recipient-dpid must be the store's DDEX party id, PADPIDA and 11 letters or digits (got "${value}").`,
      'invalid_dpid',
    );
  }
  return dpid;
}

export function checkRecipientName(value: string): string {
  const name = value.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (name.length === 0 || name.length > MAX_NAME || /[\0-\x1f\x7f]/.test(name)) {
    throw refuse(
      'recipient_name',
      `--recipient-name must be the store's name as DDEX messages give it: 1 to ${MAX_NAME} characters, no control characters.`,
    );
  }
  return name;
}

export function checkChoreography(value: string | undefined): Choreography {
  if (value === undefined) return 'release';
  if (!(CHOREOGRAPHIES as readonly string[]).includes(value)) {
    throw refuse('choreography', `--choreography must be ${CHOREOGRAPHIES.join(' or ')} (got "${value}").`);
  }
  return value as Choreography;
}
