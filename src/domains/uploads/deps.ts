import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboundClient } from '../../platform/http/index.ts';
import type { Scratch } from '../../platform/scratch.ts';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';

/** What the upload use cases need from the platform; built per request by the schema context. */
export interface UploadDeps {
  em: EntityManager;
  storage: ObjectStorage;
  scratch: Scratch;
  outbound: OutboundClient;
  publicUrl: string;
  sessionTtlSeconds: number;
  now(): Date;
}
