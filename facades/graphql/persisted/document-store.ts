import { createHash } from 'node:crypto';
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
  perCallerPerMinute: 60,
} as const;

/** One operation of a persisted document, compiled once. */
export interface PersistedOperation {
  name: string | null;
  kind: OperationTypeNode;
  definition: OperationDefinitionNode;
  /** graphql-jit's compiled query (null for a subscription, which graphql-ws runs). */
  compiled: CompiledQuery | null;
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

export const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The documents /graphql can run by reference: the manifest's (trusted, under their manifest ids and
 * their SHA-256) and those clients registered (Automatic Persisted Queries, by SHA-256). A document is
 * parsed, validated and compiled when it is added, never again when it runs.
 */
export class PersistedDocumentStore {
  private readonly trusted = new Map<string, PersistedDocument>();
  private readonly registered: LRUCache<string, PersistedDocument>;
  private readonly schema: GraphQLSchema;

  constructor(schema: GraphQLSchema, maxRegistered: number = REGISTRATION_LIMITS.maxDocuments) {
    this.schema = schema;
    this.registered = new LRUCache({ max: maxRegistered });
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

  private prepare(source: string, trusted: boolean, hash = sha256Of(source)): PersistedDocument {
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
        const compiled =
          definition.operation === 'subscription'
            ? null
            : compileQuery(this.schema, document, name ?? undefined);
        return {
          name,
          kind: definition.operation,
          definition,
          compiled: compiled && isCompiledQuery(compiled) ? compiled : null,
        };
      });
    return { sha256: hash, source, document, operations, trusted };
  }
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
