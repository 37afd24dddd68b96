import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { GraphQLSchema } from 'graphql';
import { DASHBOARD_MANIFEST } from '../../web/dashboard/sources.ts';
import { DocumentRefusedError, PersistedDocumentStore } from './document-store.ts';

/** A manifest that cannot be used: start-up stops with this one line. */
export class ManifestError extends Error {
  override name = 'ManifestError';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The id → text pairs of a manifest: graphql-codegen's client preset (`persisted-documents.json`,
 * `{"<id>": "<document>"}`) or Apollo's persisted query manifest (`{"format":
 * "apollo-persisted-query-manifest", "operations": [{"id", "body"}]}`).
 */
export function manifestEntries(json: unknown): [string, string][] {
  if (isObject(json) && json.format === 'apollo-persisted-query-manifest' && Array.isArray(json.operations)) {
    return json.operations.map((operation, index) => {
      if (!isObject(operation) || typeof operation.id !== 'string' || typeof operation.body !== 'string')
        throw new ManifestError(`operations[${index}] needs a string id and body`);
      return [operation.id, operation.body];
    });
  }
  if (!isObject(json)) throw new ManifestError('a manifest is a JSON object of documentId → document text');
  return Object.entries(json).map(([id, text]) => {
    if (typeof text !== 'string') throw new ManifestError(`the document of "${id}" is not a string`);
    return [id, text];
  });
}

/** An id that names a hash of the text (sha1 or sha256, bare or `sha256:`-prefixed) must be that hash. */
function checkHashId(id: string, text: string): void {
  const bare = id.replace(/^sha256:/, '');
  const algorithm = /^[0-9a-f]{64}$/i.test(bare) ? 'sha256' : /^[0-9a-f]{40}$/i.test(bare) ? 'sha1' : null;
  if (!algorithm) return;
  const actual = createHash(algorithm).update(text).digest('hex');
  if (actual !== bare.toLowerCase())
    throw new ManifestError(`"${id}" is not the ${algorithm} of its document (${actual})`);
}

/**
 * The store of persisted documents for /graphql: the dashboard's documents (always trusted: the pages
 * of this service run them, docs/dashboard.md) and the manifest's (if a file is named), each parsed,
 * validated against /graphql's schema and limits, and compiled. A manifest that cannot be read or holds
 * a document that does not validate stops start-up, naming the file and the entry.
 */
export function persistedDocumentsFor(schema: GraphQLSchema, manifestFile: string | undefined) {
  const store = new PersistedDocumentStore(schema);
  addManifest(store, DASHBOARD_MANIFEST, `the dashboard's documents (${DASHBOARD_MANIFEST})`);
  if (manifestFile) addManifest(store, manifestFile, `GRAPHQL_DOCUMENTS_FILE (${manifestFile})`);
  return store;
}

/** Adds every document of a manifest file as trusted; `where` names the file in a ManifestError. */
function addManifest(store: PersistedDocumentStore, file: string, where: string): void {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ManifestError(`${where}: ${(error as Error).message}`);
  }
  try {
    for (const [id, text] of manifestEntries(json)) {
      checkHashId(id, text);
      try {
        store.addTrusted(id, text);
      } catch (error) {
        if (error instanceof DocumentRefusedError) throw new ManifestError(`"${id}": ${error.message}`);
        throw error;
      }
    }
  } catch (error) {
    if (error instanceof ManifestError) throw new ManifestError(`${where}: ${error.message}`);
    throw error;
  }
}
