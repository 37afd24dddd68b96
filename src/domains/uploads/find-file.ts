import type { EntityManager } from '@mikro-orm/postgresql';
import { runSql } from '../../platform/db/direct-sql.ts';
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

/**
 * Many owned files in one statement, in the order asked: each `fileUrl` through its owner, null where
 * `findOwnedFile` would answer "not found". The statement is written here and its rows mapped onto
 * entities (managed, as a find leaves them): a submission asks for its files on every request, and the
 * query builder cost more than the statement.
 */
export async function findOwnedFiles(
  em: EntityManager,
  wanted: readonly { accountId: string; fileUrl: string }[],
): Promise<(StoredFile | null)[]> {
  const keys = wanted.map(({ accountId, fileUrl }) => {
    const parsed = parseFileUrl(fileUrl);
    return parsed && parsed.ownerId === accountId
      ? { accountId, store: parsed.store as FileStore, name: parsed.name }
      : null;
  });
  const lookups = keys.filter((key) => key !== null);
  if (lookups.length === 0) return wanted.map(() => null);
  const values: string[] = [];
  const where = lookups.map((key) => {
    values.push(key.accountId, key.store, key.name);
    const n = values.length;
    return `(account_id = $${n - 2} and store = $${n - 1} and name = $${n})`;
  });
  const rows = await runSql(em, `select * from stored_files where ${where.join(' or ')}`, values);
  const files = rows.map((row) => em.map(StoredFile, row));
  const byKey = new Map(files.map((file) => [`${file.account.id}|${file.store}|${file.name}`, file]));
  return keys.map((key) => (key ? (byKey.get(`${key.accountId}|${key.store}|${key.name}`) ?? null) : null));
}
