import type { ApplicableLimit } from '../../src/domains/rate-limits/index.ts';
import type { LimitRule } from '../../src/platform/rate-limit/index.ts';

/**
 * Documents a caller may register on /graphql (Automatic Persisted Queries) a minute, in the shared
 * rate-limit store: registered documents are kept in memory. A GraphQL limit, so it lives here rather
 * than in a domain; the persisted-document path spends it, the rate-limits listing reads it.
 */
export const DOCUMENT_REGISTRATIONS_PER_CALLER: LimitRule = {
  name: 'graphql-document-registration',
  points: 60,
  windowSeconds: 60,
};

/** The counter of a caller: the account's when signed in, else the address's. */
export const documentRegistrationSubject = (accountId: string | null, ip: string) =>
  accountId ? `account:${accountId}` : `address:${ip}`;

export const documentRegistrationLimit = (accountId: string): ApplicableLimit<'document_registration'> => ({
  rule: DOCUMENT_REGISTRATIONS_PER_CALLER,
  subject: documentRegistrationSubject(accountId, ''),
  action: 'document_registration',
  keyedBy: 'account',
  appliesTo: 'GraphQL documents the account registers by hash on /graphql (Automatic Persisted Queries).',
});
