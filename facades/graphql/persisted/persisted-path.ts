import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type ExecutionResult, execute } from 'graphql';
import { authenticate, bearerToken, createContext } from '../../../schema/context.ts';
import { normaliseError } from '../../../schema/errors.ts';
import { refuseHostileInput } from '../../../schema/input-guard.ts';
import {
  DOCUMENT_REGISTRATIONS_PER_CALLER,
  documentRegistrationSubject,
} from '../../../schema/rate-limits/document-registration.ts';
import type { AppServices } from '../../../schema/services.ts';
import { AppError } from '../../../src/platform/errors.ts';
import { clientInfo } from '../../client-info.ts';
import { countError, observeRequest } from '../../metrics.ts';
import { inExecutorOrder, placed } from '../compiled-repeats.ts';
import { countGraphQLError } from '../error-metrics.ts';
import { sendGraphQLRefusal } from '../media-types.ts';
import { AnswerTags } from './answer-tags.ts';
import {
  compiledOf,
  DocumentRefusedError,
  operationOf,
  type PersistedDocument,
  type PersistedDocumentStore,
  sha256Of,
} from './document-store.ts';
import { asTextRequest, type DocumentReference, documentReferenceOf } from './reference.ts';
import { UNTRUSTED_DOCUMENT } from './trusted-only.ts';

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/** The media types yoga answers a query or mutation in, in its order of preference. */
const REGULAR_TYPES = ['application/graphql-response+json', 'application/json'] as const;

/**
 * The media type yoga would answer in for this Accept header (the first type the client lists that a
 * regular result can take), or null when yoga would choose otherwise: then yoga answers.
 */
export function acceptedMediaType(accept: string | undefined): (typeof REGULAR_TYPES)[number] | null {
  const key = accept ?? '';
  const known = ACCEPT_READINGS.get(key);
  if (known !== undefined) return known;
  const reading = readAccept(accept);
  // Clients send a handful of distinct headers: the first few hundred readings are kept.
  if (ACCEPT_READINGS.size < 256 && key.length <= 256) ACCEPT_READINGS.set(key, reading);
  return reading;
}

const ACCEPT_READINGS = new Map<string, (typeof REGULAR_TYPES)[number] | null>();

function readAccept(accept: string | undefined): (typeof REGULAR_TYPES)[number] | null {
  const asked = (accept || '*/*')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .filter((part) => {
      const charset = part.split(';').find((param) => param.includes('charset='));
      return !charset || charset === 'charset=utf-8';
    })
    .map((part) => part.split(';')[0]!);
  // A browser's page load: GraphiQL's (yoga's) to answer.
  if (asked.includes('text/html')) return null;
  for (const type of asked) {
    const [askedMain, askedSub] = type.split('/');
    for (const offered of REGULAR_TYPES) {
      const [main, sub] = offered.split('/');
      if ((askedMain === '*' || askedMain === main) && (askedSub === '*' || askedSub === sub)) {
        // Yoga takes the last of the client's matches within the first type that matches at all.
        return type === offered ? offered : 'application/json';
      }
    }
  }
  return null;
}

export interface PersistedPathOptions {
  /** GRAPHQL_TRUSTED_DOCUMENTS_ONLY: only the manifest's documents run. */
  trustedOnly: boolean;
}

/**
 * `/graphql` for documents sent by reference (a `documentId`, an Automatic Persisted Query hash), and,
 * with only trusted documents allowed, for texts of the manifest's documents. A document the store
 * holds runs compiled, without parsing or validating, and is answered here. Whatever this path does
 * not answer itself (a text it need not check, a signed-out or refused token, variables that do not
 * coerce, a subscription, an Accept or an Origin that yoga's headers answer) goes to yoga, with the
 * document's text in place of its reference: the answer is then exactly what the text alone gets.
 */
export function persistedDocumentPath(
  app: AppServices,
  store: PersistedDocumentStore,
  options: PersistedPathOptions,
): RequestHandler {
  const tags = new AnswerTags();
  return (req: Request, res: Response, next: NextFunction) => {
    answer(app, store, tags, options, req, res, next).catch(next);
  };
}

async function answer(
  app: AppServices,
  store: PersistedDocumentStore,
  tags: AnswerTags,
  { trustedOnly }: PersistedPathOptions,
  req: Request,
  res: Response,
  next: NextFunction,
): Promise<void> {
  const reference = documentReferenceOf(req);
  if (!reference) {
    next();
    return;
  }
  const found = await documentFor(app, store, trustedOnly, reference, req, res);
  if (found === 'answered') return;
  if (found === 'generic') {
    next();
    return;
  }
  if (!(await run(app, store, tags, found, reference, req, res))) {
    asTextRequest(req, reference, found.source);
    next();
  }
}

/**
 * Answers the request with a GraphQL error of its own (status, type, code, message; a rate limit's
 * refusal adds retryAfterSeconds and the limit's figures).
 */
type Refuse = (
  status: number,
  type: AppError['type'],
  code: string,
  message: string,
  limited?: Pick<AppError, 'retryAfterSeconds' | 'rateLimit'>,
) => 'answered';

/** The document the request names, 'generic' for yoga's path, or 'answered' when refused here. */
async function documentFor(
  app: AppServices,
  store: PersistedDocumentStore,
  trustedOnly: boolean,
  reference: DocumentReference,
  req: Request,
  res: Response,
): Promise<PersistedDocument | 'generic' | 'answered'> {
  const refuse: Refuse = (status, type, code, message, limited) => {
    // Counted as the body refusals before this path are: an error of its type, a failed request.
    countError(res, type, 'graphql');
    sendGraphQLRefusal(res, status, { type, code, message, ...limited });
    observeRequest(app.metrics.graphqlOperation('anonymous'), res, true);
    return 'answered' as const;
  };
  const { query, documentId, persistedQuery } = reference;
  if (documentId !== undefined) {
    if (query !== undefined || persistedQuery)
      return refuse(
        400,
        'invalid_request_error',
        'document_id_with_query',
        'Send the document by documentId or by query, not both.',
      );
    const document = store.find(documentId);
    if (document) return document;
    return refuse(
      404,
      'not_found_error',
      'persisted_query_not_found',
      `No persisted document has the documentId "${documentId.slice(0, 200)}": send the document's text as query (or, with Automatic Persisted Queries, the text with its hash to register it).`,
    );
  }
  if (persistedQuery) {
    const { version, sha256Hash } = persistedQuery;
    if (version !== 1 || typeof sha256Hash !== 'string' || !SHA256_HEX.test(sha256Hash))
      return refuse(
        400,
        'invalid_request_error',
        'invalid_persisted_query',
        'extensions.persistedQuery must be {"version": 1, "sha256Hash": "<64 hex digits>"}.',
      );
    const hash = sha256Hash.toLowerCase();
    const held = store.find(hash);
    if (query === undefined) {
      // The message is the protocol's: clients send the text on seeing it.
      return held ?? refuse(404, 'not_found_error', 'persisted_query_not_found', 'PersistedQueryNotFound');
    }
    if (sha256Of(query) !== hash)
      return refuse(
        400,
        'invalid_request_error',
        'persisted_query_hash_mismatch',
        `The query's SHA-256 is ${sha256Of(query)}, not the sha256Hash sent (${hash}).`,
      );
    if (held && (held.trusted || !trustedOnly)) return held;
    if (trustedOnly) return refuseUntrusted(refuse);
    return registered(app, store, query, req, res, refuse);
  }
  if (query === undefined) return 'generic';
  if (trustedOnly) {
    const trusted = store.find(sha256Of(query));
    return trusted?.trusted ? trusted : refuseUntrusted(refuse);
  }
  try {
    return store.forText(query);
  } catch (error) {
    if (error instanceof DocumentRefusedError) return 'generic'; // yoga words the refusal
    throw error;
  }
}

const refuseUntrusted = (refuse: Refuse) =>
  refuse(403, UNTRUSTED_DOCUMENT.type, UNTRUSTED_DOCUMENT.code, UNTRUSTED_DOCUMENT.message);

/** Registers an APQ document for the caller, within the rate limit; its refusal is yoga's to word. */
async function registered(
  app: AppServices,
  store: PersistedDocumentStore,
  query: string,
  req: Request,
  res: Response,
  refuse: Refuse,
): Promise<PersistedDocument | 'generic' | 'answered'> {
  let caller: string;
  try {
    const principal = await authenticate(app, bearerToken(req.headers.authorization));
    caller = documentRegistrationSubject(principal?.accountId ?? null, req.ip ?? 'unknown');
  } catch {
    return 'generic'; // yoga answers the token's refusal
  }
  try {
    await app.rateLimits.consume(
      DOCUMENT_REGISTRATIONS_PER_CALLER,
      caller,
      `At most ${DOCUMENT_REGISTRATIONS_PER_CALLER.points} documents registered a minute: send documents already registered by their hash, or wait.`,
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
    return refuse(error.type === 'rate_limit_error' ? 429 : 503, error.type, error.code, error.message, {
      retryAfterSeconds: error.retryAfterSeconds,
      rateLimit: error.rateLimit,
    });
  }
  try {
    return store.register(query);
  } catch (error) {
    if (error instanceof DocumentRefusedError) return 'generic';
    throw error;
  }
}

/** Whether If-None-Match lists the tag (or `*`), weak or strong. */
function matchesTag(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((each) => {
    const candidate = each.trim().replace(/^W\//, '');
    return candidate === tag || candidate === '*';
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Runs the document's operation compiled and answers, when this path can answer as yoga would;
 * false (nothing run, nothing sent) when yoga must.
 */
async function run(
  app: AppServices,
  store: PersistedDocumentStore,
  tags: AnswerTags,
  document: PersistedDocument,
  reference: DocumentReference,
  req: Request,
  res: Response,
): Promise<boolean> {
  const operation = operationOf(document, reference.operationName);
  const isGet = req.method !== 'POST';
  if (!operation || operation.kind === 'subscription' || (isGet && operation.kind !== 'query')) return false;
  // Yoga answers a cross-origin caller with its CORS headers.
  if (req.headers.origin !== undefined) return false;
  const mediaType = acceptedMediaType(req.headers.accept);
  if (!mediaType) return false;
  const variables = reference.variables ?? {};
  if (!isObject(variables)) return false;
  let principal: Awaited<ReturnType<typeof authenticate>>;
  try {
    principal = await authenticate(app, bearerToken(req.headers.authorization));
  } catch {
    return false;
  }
  if (refuseHostileInput(document.document, variables)) return false;
  const requestId = String(res.locals.requestId ?? crypto.randomUUID());
  const context = createContext(app, principal, { requestId, client: clientInfo(req) });
  // A text seen for the first time runs in graphql-js's executor: compiling costs more than one run.
  const compiled =
    app.config.GRAPHQL_COMPILED && (document.runs > 0 || operation.compiled !== undefined)
      ? compiledOf(store.schema, document.document, operation)
      : null;
  document.runs += 1;
  const result = (
    compiled
      ? await compiled.query(undefined, context, variables)
      : await execute({
          schema: store.schema,
          document: document.document,
          operationName: operation.name,
          variableValues: variables,
          contextValue: context,
        })
  ) as ExecutionResult;
  // Variables that do not coerce: nothing ran, and yoga words the request error.
  if (!('data' in result)) return false;

  const name = principal ? (operation.name ?? 'anonymous') : 'anonymous';
  let body: string;
  if (result.errors?.length) {
    const source = document.document.loc?.source;
    const ordered = inExecutorOrder(result, (error) =>
      normaliseError(source ? placed(error, source) : error, app.logger, requestId),
    );
    for (const error of ordered.errors ?? []) {
      countGraphQLError(app, error);
      const { type, retryAfterSeconds } = (error.extensions ?? {}) as Record<string, unknown>;
      if (type === 'unavailable_error' && typeof retryAfterSeconds === 'number')
        res.setHeader('Retry-After', String(retryAfterSeconds));
    }
    body = JSON.stringify(ordered);
  } else {
    body = JSON.stringify(result);
  }
  const failed = Boolean(result.errors?.length);
  res.statusCode = 200;
  res.setHeader('Content-Type', `${mediaType}; charset=utf-8`);
  if (isGet) {
    // A poll answered the same as before is a 304: the client keeps what it has.
    const tag = tags.tagFor(req.url, body);
    res.setHeader('ETag', tag);
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('Vary', 'Authorization');
    if (!failed && matchesTag(req.headers['if-none-match'], tag)) {
      res.statusCode = 304;
      res.removeHeader('Content-Type');
      res.end();
      observeRequest(app.metrics.graphqlOperation(name), res, false);
      return true;
    }
  }
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
  observeRequest(app.metrics.graphqlOperation(name), res, failed);
  return true;
}
