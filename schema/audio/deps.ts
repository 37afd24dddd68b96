import type { AudioDeps } from '../../src/domains/audio/index.ts';
import type { Context } from '../context.ts';

/** The audio analysers' services, without the EntityManager (the caller's own is used). */
export function audioServices(context: Context): Omit<AudioDeps, 'em'> {
  return { storage: context.app.storage, aiDetector: context.app.aiDetector };
}

export function audioDeps(context: Context): AudioDeps {
  return { em: context.em, ...audioServices(context) };
}
