import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * The registry's version: one row, bumped by every change to the registry after it is written. A
 * cached registry-match result keeps the version read before its check; any other version means the
 * registry changed since (docs/audio.md). A counter, not a timestamp: a recording dated before a check
 * but committed after it would leave a timestamp comparison fooled.
 */
export const RegistryVersion = defineEntity({
  name: 'RegistryVersion',
  tableName: 'registry_version',
  properties: {
    id: p.integer().primary().autoincrement(false),
    version: p.bigint('number').default(0),
  },
});

export type RegistryVersion = InferEntity<typeof RegistryVersion>;
