import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, invalidRequest, notFound } from '../../../platform/errors.ts';
import { isUuid } from '../../../platform/ids.ts';
import { UploadSession } from '../upload-session.entity.ts';

/** The caller's session (another account's answers "not found"); `open` also refuses finished ones. */
export async function findSession(
  em: EntityManager,
  accountId: string,
  sessionId: string,
  options: { open?: boolean; now?: Date } = {},
): Promise<UploadSession> {
  if (!isUuid(sessionId)) {
    throw invalidRequest('sessionId is not a valid upload session id.', [
      { path: 'sessionId', message: 'not a uuid' },
    ]);
  }
  const session = await em.findOne(UploadSession, { id: sessionId.toLowerCase(), account: accountId });
  if (!session) throw notFound('No such upload session.', 'upload_session_not_found');
  if (options.open) {
    if (session.status === 'completed')
      throw conflict('This upload session is already complete.', 'upload_session_completed');
    if (
      session.status === 'expired' ||
      session.expiresAt.getTime() <= (options.now ?? new Date()).getTime()
    ) {
      throw conflict('This upload session has expired; start a new one.', 'upload_session_expired');
    }
  }
  return session;
}
