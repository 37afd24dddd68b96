import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../platform/errors.ts';
import { parseFileUrl } from '../../platform/storage/index.ts';
import type { FileStore } from './stored-file.entity.ts';
import { StoredFile } from './stored-file.entity.ts';

/**
 * Resolves a `fileUrl` through its owner: another account's file, a malformed URL and a missing file
 * all answer "not found", so nothing about other accounts leaks.
 */
export async function findOwnedFile(
  em: EntityManager,
  accountId: string,
  fileUrl: string,
  options: { store?: FileStore; fieldPath?: string } = {},
): Promise<StoredFile> {
  const parsed = parseFileUrl(fileUrl);
  const fail = () =>
    notFound(
      `No file of yours at ${options.fieldPath ? `${options.fieldPath}: ` : ''}${fileUrl}.`,
      'file_not_found',
    );
  if (!parsed || parsed.ownerId !== accountId) throw fail();
  if (options.store && parsed.store !== options.store) {
    throw notFound(`${fileUrl} is not in the ${options.store} store.`, 'file_wrong_store');
  }
  const file = await em.findOne(StoredFile, {
    account: accountId,
    store: parsed.store as FileStore,
    name: parsed.name,
  });
  if (!file) throw fail();
  return file;
}
