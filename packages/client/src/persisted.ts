import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type DocumentNode, Kind, type OperationDefinitionNode, print } from 'graphql';
import manifest from './generated/graphql/persisted-documents.json' with { type: 'json' };

/** The manifest codegen wrote: documentId (`sha256:<hex>`) → the exact text the server trusts. */
export const persistedDocuments: Readonly<Record<string, string>> = manifest;

/** What the client needs of a document to send it. */
export interface OperationOf {
  kind: 'query' | 'mutation' | 'subscription';
  name: string | undefined;
  /** The root fields it selects (`submitRelease`, …). */
  rootFields: string[];
  /** `sha256:<hex>` for a document of the manifest. */
  documentId: string | undefined;
  /** The text to send: the manifest's exact text (which a trusted-documents server accepts) or printed. */
  text: string;
}

const known = new WeakMap<DocumentNode, OperationOf>();

/**
 * The operation of a document: a generated one carries its manifest id (`__meta__.hash`), and its
 * text comes from the manifest; any other document is printed and sent as text.
 */
export function operationOf(document: TypedDocumentNode<unknown, never> | DocumentNode): OperationOf {
  const cached = known.get(document);
  if (cached) return cached;
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new TypeError('The document has no operation.');
  const hash = (document as { __meta__?: { hash?: unknown } }).__meta__?.hash;
  const documentId = typeof hash === 'string' && hash in persistedDocuments ? hash : undefined;
  const info: OperationOf = {
    kind: operation.operation as OperationOf['kind'],
    name: operation.name?.value,
    rootFields: operation.selectionSet.selections.flatMap((selection) =>
      selection.kind === Kind.FIELD ? [selection.name.value] : [],
    ),
    documentId,
    text: documentId ? persistedDocuments[documentId]! : print(document),
  };
  known.set(document, info);
  return info;
}
