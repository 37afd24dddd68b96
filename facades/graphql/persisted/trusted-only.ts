import { GraphQLError } from 'graphql';
import { AppError } from '../../../src/platform/errors.ts';

/** GRAPHQL_TRUSTED_DOCUMENTS_ONLY's refusal of a document outside the manifest, over HTTP (403) or WebSocket. */
export const UNTRUSTED_DOCUMENT = {
  type: 'permission_error',
  code: 'trusted_documents_only',
  message:
    'This server runs trusted documents only: send the documentId of a document in its manifest (GRAPHQL_DOCUMENTS_FILE), or ask its operator to add yours.',
} as const;

export function untrustedDocument(): GraphQLError {
  const error = new AppError(UNTRUSTED_DOCUMENT.type, UNTRUSTED_DOCUMENT.code, UNTRUSTED_DOCUMENT.message);
  return new GraphQLError(error.message, { originalError: error });
}
