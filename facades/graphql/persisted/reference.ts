import type { Request } from 'express';
import { LRUCache } from 'lru-cache';

/**
 * What a /graphql request says about the document it runs, read from a JSON POST body or a GET's
 * query string: the document's text, a `documentId` (GraphQL over HTTP, persisted documents), or an
 * Automatic Persisted Query's `extensions.persistedQuery` (with or without the text, to register it).
 */
export interface DocumentReference {
  query: string | undefined;
  documentId: string | undefined;
  persistedQuery: { version: unknown; sha256Hash: unknown } | undefined;
  operationName: string | null | undefined;
  /** The variables as sent: an object, null, or (unreadable) something else. */
  variables: unknown;
  /** The body's other extensions, kept for the generic path. */
  extensions: Record<string, unknown> | undefined;
}

/** A GET parameter holding JSON: undefined when absent, `unreadable` when it does not parse. */
const UNREADABLE = Symbol('unreadable');
function jsonParameter(value: unknown): unknown {
  if (typeof value !== 'string') return value === undefined ? undefined : UNREADABLE;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return UNREADABLE;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the GET references read from their URLs keep: a few hundred URLs, each no longer than 4,096 characters. */
export const GET_REFERENCE_LIMITS = { urls: 256, urlCharacters: 4_096 } as const;

/**
 * GET references by URL: a dashboard polls the same URL, whose query string and variables are read
 * once. A kept reference serves every request for its URL, so it is frozen whole (variables included).
 */
const getReferences = new LRUCache<string, DocumentReference>({ max: GET_REFERENCE_LIMITS.urls });

/** The reference a request carries, or null when the request is not one this path reads (yoga answers). */
export function documentReferenceOf(req: Request): DocumentReference | null {
  if (req.method === 'POST') return isObject(req.body) ? referenceIn(req.body) : null;
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const url = req.url;
  const kept = getReferences.get(url);
  if (kept !== undefined) return kept;
  const query = req.query as Record<string, unknown>;
  const reference = referenceIn({
    query: query.query,
    documentId: query.documentId,
    operationName: query.operationName,
    variables: jsonParameter(query.variables),
    extensions: jsonParameter(query.extensions),
  });
  if (reference && url.length <= GET_REFERENCE_LIMITS.urlCharacters)
    getReferences.set(url, deepFrozen(reference));
  return reference;
}

function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const each of Object.values(value)) deepFrozen(each);
    Object.freeze(value);
  }
  return value;
}

function referenceIn(fields: Record<string, unknown>): DocumentReference | null {
  const { query, documentId, operationName, variables, extensions } = fields;
  if (extensions === UNREADABLE || variables === UNREADABLE) return null;
  if (extensions !== undefined && extensions !== null && !isObject(extensions)) return null;
  if (query !== undefined && typeof query !== 'string') return null;
  if (documentId !== undefined && typeof documentId !== 'string') return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  const persisted = extensions?.persistedQuery;
  if (persisted !== undefined && !isObject(persisted)) return null;
  const { persistedQuery: _read, ...otherExtensions } = extensions ?? {};
  return {
    query,
    documentId,
    persistedQuery: persisted ? { version: persisted.version, sha256Hash: persisted.sha256Hash } : undefined,
    operationName,
    variables,
    extensions: Object.keys(otherExtensions).length > 0 ? otherExtensions : undefined,
  };
}

/**
 * Hands the request to the generic path (yoga) as if it had carried `source` as its text: the body's
 * `query` (POST), or the query string's (GET). Yoga then answers exactly what the text alone gets.
 */
export function asTextRequest(req: Request, reference: DocumentReference, source: string): void {
  if (req.method === 'POST') {
    req.body = {
      query: source,
      ...(reference.operationName === undefined ? {} : { operationName: reference.operationName }),
      ...(reference.variables === undefined ? {} : { variables: reference.variables }),
      ...(reference.extensions ? { extensions: reference.extensions } : {}),
    };
    return;
  }
  const url = new URL(req.originalUrl, 'http://localhost');
  url.searchParams.delete('documentId');
  url.searchParams.delete('extensions');
  url.searchParams.set('query', source);
  if (reference.extensions) url.searchParams.set('extensions', JSON.stringify(reference.extensions));
  const rewritten = `${url.pathname}${url.search}`;
  req.originalUrl = rewritten;
  req.url = `${req.url.split('?')[0]}${url.search}`;
}
