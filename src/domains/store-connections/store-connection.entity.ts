import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';

/** How a store takes packages: each release in its own directory, or several releases per batch directory. */
export const CHOREOGRAPHIES = ['release', 'batch'] as const;
export type Choreography = (typeof CHOREOGRAPHIES)[number];

export const AUTH_METHODS = ['private_key', 'password'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/**
 * A store connected over SFTP: where its server is, the host key it must present, and the credential
 * (a private key or a password), sealed with the secret-box key (`src/platform/secret-box.ts`, the key
 * that seals webhook secrets) and never returned. A store without a row stays on the sandbox.
 */
export const StoreConnection = defineEntity({
  name: 'StoreConnection',
  tableName: 'store_connections',
  properties: {
    /** The catalog's store id (`src/domains/catalog/stores.ts`): one connection per store. */
    storeId: p.integer().primary().autoincrement(false),
    host: p.string().length(253),
    port: p.integer(),
    username: p.string().length(100),
    /** The absolute directory on the server that packages go under. */
    rootPath: p.text(),
    authMethod: p.enum(AUTH_METHODS),
    secretSealed: p.text().lazy(),
    /** `SHA256:<base64>`, as OpenSSH prints it. */
    hostKeyFingerprint: p.string().length(50),
    recipientDpid: p.string().length(18),
    recipientName: p.string().length(200),
    choreography: p.enum(CHOREOGRAPHIES).default('release'),
    createdAt: columns.createdAt(),
    updatedAt: columns.updatedAt(),
  },
});

export type StoreConnection = InferEntity<typeof StoreConnection>;
