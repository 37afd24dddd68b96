import type { EntityManager } from '@mikro-orm/postgresql';
import { constantTimeEqual, sha256Hex } from '../../../platform/crypto.ts';
import { unauthenticated } from '../../../platform/errors.ts';
import type { Principal } from '../../accounts/index.ts';
import { UploadSession } from '../upload-session.entity.ts';

/** A scoped upload token acts for its account on its one session only, and only while it is open. */
export async function authenticateUploadToken(
  em: EntityManager,
  token: string,
  now = new Date(),
): Promise<Principal> {
  const hash = sha256Hex(token);
  const session = await em.findOne(UploadSession, { uploadTokenHash: hash }, { disableIdentityMap: true });
  if (!session || !constantTimeEqual(session.uploadTokenHash, hash))
    throw unauthenticated('The upload token is invalid.');
  if (session.status !== 'open' || session.expiresAt.getTime() <= now.getTime()) {
    throw unauthenticated('The upload token belongs to a finished or expired session.', 'token_expired');
  }
  return {
    accountId: session.account.id,
    scopes: new Set(),
    tokenId: session.id,
    tokenKind: 'upload',
    uploadSessionId: session.id,
  };
}
