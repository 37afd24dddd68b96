import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { conflict, invalidRequest, notFound } from '../../platform/errors.ts';
import type { OutboundPolicy, Resolver } from '../../platform/http/index.ts';
import { isUuid } from '../../platform/ids.ts';
import { seal } from '../../platform/secret-box.ts';
import { Account } from '../accounts/index.ts';
import { WEBHOOK_EVENT_TYPES } from './event-types.ts';
import { generateWebhookSecret, secretPrefixOf } from './secret.ts';
import { checkWebhookUrl } from './url-check.ts';
import { MAX_ENDPOINTS_PER_ACCOUNT, WebhookEndpoint } from './webhook-endpoint.entity.ts';

const MAX_DESCRIPTION = 500;

export interface CreateEndpointInput {
  url: string;
  description?: string | null;
  eventTypes?: readonly string[] | null;
}

export interface CreateEndpointOptions {
  /** The outbound policy the URL must satisfy (the platform's: OUTBOUND_ALLOW_PRIVATE). */
  policy: OutboundPolicy;
  /** Host name resolution for the SSRF check; the system resolver by default. */
  resolver?: Resolver;
  /** The secret-box key the signing secret is sealed with. */
  secretKey: Uint8Array;
  /** The event kinds that exist now (the default subscription); WEBHOOK_EVENT_TYPES by default. */
  knownEventTypes?: readonly string[];
}

export interface UpdateEndpointInput {
  active?: boolean;
  eventTypes?: readonly string[];
  description?: string | null;
}

function checkEventTypes(value: readonly string[], known: readonly string[]): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidRequest(
      `event_types must list at least one event type (known: ${known.join(', ')}).`,
      [{ path: 'event_types', message: 'must not be empty' }],
      'invalid_event_types',
    );
  }
  const unknown = value.filter((type) => !known.includes(type));
  if (unknown.length > 0) {
    const message = `Unknown event type(s): ${unknown.join(', ')}. Known event types: ${known.join(', ')}.`;
    throw invalidRequest(
      message,
      value.flatMap((type, i) => (known.includes(type) ? [] : [{ path: `event_types[${i}]`, message }])),
      'unknown_event_type',
    );
  }
  return [...new Set(value)];
}

function checkDescription(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > MAX_DESCRIPTION) {
    throw invalidRequest(`description must be a string of at most ${MAX_DESCRIPTION} characters.`, [
      { path: 'description', message: `at most ${MAX_DESCRIPTION} characters` },
    ]);
  }
  return value.trim() === '' ? null : value;
}

/**
 * Registers an endpoint and returns it with its signing secret — the only time the secret is shown.
 * The account row is locked so two concurrent creations cannot pass the limit together.
 */
export async function createEndpoint(
  em: EntityManager,
  accountId: string,
  input: CreateEndpointInput,
  options: CreateEndpointOptions,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const known = options.knownEventTypes ?? WEBHOOK_EVENT_TYPES;
  const url = await checkWebhookUrl(input.url, { policy: options.policy, resolver: options.resolver });
  const eventTypes =
    input.eventTypes === undefined || input.eventTypes === null
      ? [...known]
      : checkEventTypes(input.eventTypes, known);
  const description = checkDescription(input.description);
  const secret = generateWebhookSecret();
  const run = async (tem: EntityManager) => {
    await tem.execute('select id from accounts where id = ? for update', [accountId]);
    const count = await tem.count(WebhookEndpoint, { account: accountId });
    if (count >= MAX_ENDPOINTS_PER_ACCOUNT) {
      throw conflict(
        `An account can register at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first.`,
        'webhook_limit_reached',
      );
    }
    const endpoint = tem.create(WebhookEndpoint, {
      account: tem.getReference(Account, accountId),
      url: url.href,
      description,
      eventTypes,
      secretSealed: seal(secret, options.secretKey),
      secretPrefix: secretPrefixOf(secret),
    });
    await tem.flush();
    return endpoint;
  };
  const endpoint = em.isInTransaction() ? await run(em) : await em.transactional(run);
  return { endpoint, secret };
}

export async function listEndpoints(em: EntityManager, accountId: string): Promise<WebhookEndpoint[]> {
  return em.find(WebhookEndpoint, { account: accountId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/**
 * The caller's endpoint, or 404 — an unknown id and another account's id look the same. `withSecrets`
 * loads the sealed secrets too (lazy otherwise); `forUpdate` locks the row (inside a transaction).
 */
export async function findOwnEndpoint(
  em: EntityManager,
  accountId: string,
  endpointId: string,
  options: { withSecrets?: boolean; forUpdate?: boolean } = {},
): Promise<WebhookEndpoint> {
  const endpoint = isUuid(endpointId)
    ? await em.findOne(
        WebhookEndpoint,
        { id: endpointId, account: accountId },
        {
          ...(options.withSecrets ? { populate: ['secretSealed', 'previousSecretSealed'] as const } : {}),
          ...(options.forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {}),
        },
      )
    : null;
  if (!endpoint) throw notFound('No webhook endpoint with this id.', 'webhook_not_found');
  return endpoint;
}

/**
 * PATCH: `active: true` re-enables and resets the failure count (also when already active);
 * `active: false` disables; `eventTypes` replaces the stored list.
 */
export async function updateEndpoint(
  em: EntityManager,
  accountId: string,
  endpointId: string,
  input: UpdateEndpointInput,
  options: { knownEventTypes?: readonly string[]; now?: Date } = {},
): Promise<WebhookEndpoint> {
  const known = options.knownEventTypes ?? WEBHOOK_EVENT_TYPES;
  if (input.active !== undefined && typeof input.active !== 'boolean') {
    throw invalidRequest('active must be a boolean.', [{ path: 'active', message: 'must be a boolean' }]);
  }
  const eventTypes = input.eventTypes === undefined ? undefined : checkEventTypes(input.eventTypes, known);
  const description = input.description === undefined ? undefined : checkDescription(input.description);
  const endpoint = await findOwnEndpoint(em, accountId, endpointId);
  if (input.active === true) {
    endpoint.active = true;
    endpoint.failureCount = 0;
    endpoint.disabledAt = null;
  } else if (input.active === false && endpoint.active) {
    endpoint.active = false;
    endpoint.disabledAt = options.now ?? new Date();
  }
  if (eventTypes) endpoint.eventTypes = eventTypes;
  if (description !== undefined) endpoint.description = description;
  await em.flush();
  return endpoint;
}

/** Deletes the endpoint and its delivery log (cascade). */
export async function deleteEndpoint(
  em: EntityManager,
  accountId: string,
  endpointId: string,
): Promise<{ id: string; deleted: true }> {
  const endpoint = await findOwnEndpoint(em, accountId, endpointId);
  await em.remove(endpoint).flush();
  return { id: endpointId, deleted: true };
}
