import type { EntityManager } from '@mikro-orm/postgresql';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import type { AiDetector } from './detection/port.ts';

/** What the audio analyses need: the request's EntityManager, the file storage and the detector. */
export interface AudioDeps {
  em: EntityManager;
  storage: ObjectStorage;
  aiDetector: AiDetector;
}
