import type { EntityManager } from '@mikro-orm/postgresql';
import { columnList, runSql } from '../../platform/db/direct-sql.ts';
import { notFound } from '../../platform/errors.ts';
import { parseFileUrl } from '../../platform/storage/index.ts';
import type { FileStore, MediaWarning } from './stored-file.entity.ts';
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
 * A stored file's row as read (every mapped column; the columns its readers look at typed): `em.map(StoredFile,
 * row)` makes the entity of it, when one is needed.
 */
export interface StoredFileRow {
  id: string;
  account_id: string;
  store: FileStore;
  name: string;
  media: Record<string, unknown>;
  warnings: MediaWarning[];
  [column: string]: unknown;
}

/**
 * Many owned files' rows in one statement, in the order asked: each `fileUrl` through its owner, null
 * where `findOwnedFile` would answer "not found". A submission reads its files on every request, and
 * needs their entities only to detect an AI verdict not cached yet.
 */
export async function findOwnedFileRows(
  em: EntityManager,
  wanted: readonly { accountId: string; fileUrl: string }[],
): Promise<(StoredFileRow | null)[]> {
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
  const rows = await runSql<StoredFileRow>(
    em,
    `select ${columnList(em, StoredFile)} from stored_files where ${where.join(' or ')}`,
    values,
  );
  const byKey = new Map(rows.map((row) => [`${row.account_id}|${row.store}|${row.name}`, row]));
  return keys.map((key) => (key ? (byKey.get(`${key.accountId}|${key.store}|${key.name}`) ?? null) : null));
}

/** The same files as entities (managed, as a find leaves them). */
export async function findOwnedFiles(
  em: EntityManager,
  wanted: readonly { accountId: string; fileUrl: string }[],
): Promise<(StoredFile | null)[]> {
  const rows = await findOwnedFileRows(em, wanted);
  return rows.map((row) => (row ? em.map(StoredFile, row) : null));
}
