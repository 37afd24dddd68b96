import type { UploadDeps } from '../../src/domains/uploads/index.ts';
import type { Context } from '../context.ts';

export function uploadDeps(context: Context): UploadDeps {
  const { app } = context;
  return {
    em: context.em,
    storage: app.storage,
    scratch: app.scratch,
    outbound: app.outbound,
    publicUrl: app.config.PUBLIC_URL,
    sessionTtlSeconds: app.config.UPLOAD_SESSION_TTL_SECONDS,
    now: () => new Date(),
  };
}
