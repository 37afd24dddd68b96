import type { Request } from 'express';
import { authenticate, authenticateUpload, bearerToken, type Principal } from '../../schema/context.ts';
import type { AppServices } from '../../schema/services.ts';
import { unauthenticated } from '../../src/platform/errors.ts';

export const UPLOAD_HEADER = 'x-mcp-upload-token';

/** Chunk, complete and status accept a bearer token or the session's scoped upload token. */
export async function uploadCaller(app: AppServices, req: Request): Promise<Principal> {
  const uploadToken = req.get(UPLOAD_HEADER);
  if (uploadToken) return authenticateUpload(app, uploadToken);
  const principal = await authenticate(app, bearerToken(req.get('authorization')));
  if (!principal)
    throw unauthenticated(`Send a bearer token or the session's ${UPLOAD_HEADER} header.`, 'missing_token');
  return principal;
}

export async function bearerCaller(app: AppServices, req: Request): Promise<Principal> {
  const principal = await authenticate(app, bearerToken(req.get('authorization')));
  if (!principal) throw unauthenticated('A bearer token is required.', 'missing_token');
  return principal;
}
