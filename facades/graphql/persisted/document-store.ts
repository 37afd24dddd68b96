import { hash as digest } from 'node:crypto';
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type OperationTypeNode,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { DOCUMENT_REGISTRATIONS_PER_CALLER } from '../../../schema/rate-limits/document-registration.ts';
import { limitedParse, limitedValidate } from '../query-limits.ts';

/**
 * What registration allows a client (Automatic Persisted Queries): documents are kept in memory, so
 * their size, their number and how fast one caller adds them are bounded. Documents of the manifest
 * (GRAPHQL_DOCUMENTS_FILE) are kept apart and never evicted.
 */
export const REGISTRATION_LIMITS = {
  /** The largest document text, in bytes (UTF-8). */
  maxBytes: 100_000,
  /** Registered documents kept, least recently used evicted first. */
  maxDocuments: 2_000,
  /** Registrations per caller (account, or address when signed out) per minute. */
  perCallerPerMinute: DOCUMENT_REGISTRATIONS_PER_CALLER.points,
} as const;

/**
 * The generic path's cache of documents sent as text, by their text: a document seen again is not
 * parsed or validated again, and runs compiled from its second run on. Bounded by count and by an
 * estimate of the memory its syntax trees take (about 20 bytes per character of text).
 */
export const TEXT_CACHE_LIMITS = {
  maxDocuments: 1_000,
  maxEstimatedBytes: 32_000_000,
  bytesPerCharacter: 20,
} as const;

/** One operation of a persisted document, compiled once. */
export interface PersistedOperation {
  name: string | null;
  kind: OperationTypeNode;
  definition: OperationDefinitionNode;
  /**
   * graphql-jit's compiled query: null for a subscription (graphql-ws runs those) or what it cannot
   * compile; undefined while a document seen once as text has not been compiled yet.
   */
  compiled: CompiledQuery | null | undefined;
}

/** A document parsed, validated (with /graphql's limits) and compiled once, when it was registered. */
export interface PersistedDocument {
  /** SHA-256 (hex) of the text: the APQ hash, and `sha256:<hash>` its documentId. */
  sha256: string;
  source: string;
  document: DocumentNode;
  operations: PersistedOperation[];
  /** From the manifest: runs even when only trusted documents may. */
  trusted: boolean;
  /** How many times it has run: a document seen as text is compiled on its second run. */
  runs: number;
}

/** A document refused at registration: its GraphQL errors (syntax, validation, a limit), as yoga words them. */
export class DocumentRefusedError extends Error {
  override name = 'DocumentRefusedError';
  readonly errors: readonly GraphQLError[];

  constructor(errors: readonly GraphQLError[]) {
    super(errors.map((e) => e.message).join('; '));
    this.errors = errors;
  }
}

export const sha256Of = (text: string) => digest('sha256', text, 'hex');

/**
 * The documents /graphql can run by reference: the manifest's (trusted, under their manifest ids and
 * their SHA-256) and those clients registered (Automatic Persisted Queries, by SHA-256). A document is
 * parsed, validated and compiled when it is added, never again when it runs.
 */
export class PersistedDocumentStore {
  private readonly trusted = new Map<string, PersistedDocument>();
  private readonly registered: LRUCache<string, PersistedDocument>;
  private readonly texts: LRUCache<string, PersistedDocument>;
  readonly schema: GraphQLSchema;

  constructor(schema: GraphQLSchema, maxRegistered: number = REGISTRATION_LIMITS.maxDocuments) {
    this.schema = schema;
    this.registered = new LRUCache({ max: maxRegistered });
    this.texts = new LRUCache({
      max: TEXT_CACHE_LIMITS.maxDocuments,
      maxSize: TEXT_CACHE_LIMITS.maxEstimatedBytes,
      sizeCalculation: (document) =>
        Math.max(1, document.source.length * TEXT_CACHE_LIMITS.bytesPerCharacter),
    });
  }

  /** The document a `documentId` (a manifest id, or `sha256:<hex>`) or an APQ hash names. */
  find(id: string): PersistedDocument | undefined {
    const hash = id.startsWith('sha256:') ? id.slice('sha256:'.length) : id;
    return this.trusted.get(id) ?? this.trusted.get(hash) ?? this.registered.get(hash);
  }

  /** How many documents clients registered (the manifest's not counted). */
  get registeredCount(): number {
    return this.registered.size;
  }

  /**
   * The document of a text sent on the generic path, prepared once and kept while the cache has room
   * (then compiled on its second run); throws DocumentRefusedError for a text that does not validate,
   * which is not kept.
   */
  forText(source: string): PersistedDocument {
    const known = this.texts.get(source);
    if (known) return known;
    const document = this.prepare(source, false, sha256Of(source), false);
    this.texts.set(source, document);
    return document;
  }

  /** Adds a manifest document under its id (and its SHA-256); throws DocumentRefusedError. */
  addTrusted(id: string, source: string): PersistedDocument {
    const document = this.prepare(source, true);
    this.trusted.set(id, document);
    this.trusted.set(document.sha256, document);
    return document;
  }

  /**
   * Registers a client's document under its SHA-256 (kept while room allows); throws
   * DocumentRefusedError. A document already held is returned as it is.
   */
  register(source: string): PersistedDocument {
    const hash = sha256Of(source);
    const known = this.trusted.get(hash) ?? this.registered.get(hash);
    if (known) return known;
    const document = this.prepare(source, false, hash);
    this.registered.set(hash, document);
    return document;
  }

  private prepare(
    source: string,
    trusted: boolean,
    hash = sha256Of(source),
    compile = true,
  ): PersistedDocument {
    if (Buffer.byteLength(source) > REGISTRATION_LIMITS.maxBytes) {
      throw new DocumentRefusedError([
        new GraphQLError(
          `The document has ${Buffer.byteLength(source)} bytes; a persisted document has at most ${REGISTRATION_LIMITS.maxBytes}.`,
          { extensions: { type: 'invalid_request_error', code: 'document_too_large' } },
        ),
      ]);
    }
    let document: DocumentNode;
    try {
      document = limitedParse(source);
    } catch (error) {
      throw new DocumentRefusedError([
        error instanceof GraphQLError ? error : new GraphQLError(String(error)),
      ]);
    }
    const errors = limitedValidate(this.schema, document);
    if (errors.length > 0) throw new DocumentRefusedError(errors);
    const operations = document.definitions
      .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
      .map((definition) => {
        const name = definition.name?.value ?? null;
        const operation: PersistedOperation = {
          name,
          kind: definition.operation,
          definition,
          compiled: undefined,
        };
        if (compile) compiledOf(this.schema, document, operation);
        return operation;
      });
    return { sha256: hash, source, document, operations, trusted, runs: 0 };
  }
}

/** The operation's compiled query, compiled now if it was not yet; null where it cannot be. */
export function compiledOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: PersistedOperation,
): CompiledQuery | null {
  if (operation.compiled !== undefined) return operation.compiled;
  const compiled =
    operation.kind === 'subscription' ? null : compileQuery(schema, document, operation.name ?? undefined);
  operation.compiled = compiled && isCompiledQuery(compiled) ? compiled : null;
  return operation.compiled;
}

/**
 * The operation a request runs: the one named, or the only one. Undefined when the name matches none
 * or a name is needed and missing (yoga answers those).
 */
export function operationOf(
  document: PersistedDocument,
  operationName: string | null | undefined,
): PersistedOperation | undefined {
  if (operationName) return document.operations.find((op) => op.name === operationName);
  return document.operations.length === 1 ? document.operations[0] : undefined;
}
