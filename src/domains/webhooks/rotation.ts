import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidRequest } from '../../platform/errors.ts';
import { seal } from '../../platform/secret-box.ts';
import { findOwnEndpoint } from './endpoints.ts';
import { generateWebhookSecret, secretPrefixOf } from './secret.ts';
import type { WebhookEndpoint } from './webhook-endpoint.entity.ts';

/** How long the replaced secret keeps signing when the rotation names no window: one day. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 86_400;
/** The longest grace window: seven days. */
export const MAX_ROTATION_GRACE_SECONDS = 7 * 86_400;

export interface RotateSecretOptions {
  /** Seconds the replaced secret keeps signing, 0..MAX_ROTATION_GRACE_SECONDS. */
  graceSeconds?: number;
  secretKey: Uint8Array;
  now: Date;
}

/**
 * Gives the endpoint a new signing secret and returns it — the only time it is shown. With a grace
 * window (`graceSeconds` > 0) the secret it replaces keeps signing every delivery beside the new one
 * until the window ends; only one old secret is kept, so a rotation inside a window replaces the
 * previous secret by the one in force (the older one stops at once). `graceSeconds` 0 keeps none.
 */
export async function rotateEndpointSecret(
  em: EntityManager,
  accountId: string,
  endpointId: string,
  options: RotateSecretOptions,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const graceSeconds = options.graceSeconds ?? DEFAULT_ROTATION_GRACE_SECONDS;
  // The GraphQL argument is validated already; the domain keeps its own bounds for other callers.
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_ROTATION_GRACE_SECONDS) {
    throw invalidRequest(
      `grace_seconds must be a whole number from 0 to ${MAX_ROTATION_GRACE_SECONDS}.`,
      [{ path: 'grace_seconds', message: `from 0 to ${MAX_ROTATION_GRACE_SECONDS}` }],
      'invalid_argument',
    );
  }
  const secret = generateWebhookSecret();
  // The row is locked so two rotations at once keep one chain: each replaces what the other wrote.
  const rotate = async (tem: EntityManager) => {
    const endpoint = await findOwnEndpoint(tem, accountId, endpointId, {
      withSecrets: true,
      forUpdate: true,
    });
    const keepsPrevious = graceSeconds > 0;
    endpoint.previousSecretSealed = keepsPrevious ? endpoint.secretSealed : null;
    endpoint.previousSecretExpiresAt = keepsPrevious
      ? new Date(options.now.getTime() + graceSeconds * 1000)
      : null;
    endpoint.secretSealed = seal(secret, options.secretKey);
    endpoint.secretPrefix = secretPrefixOf(secret);
    await tem.flush();
    return endpoint;
  };
  const endpoint = em.isInTransaction() ? await rotate(em) : await em.transactional(rotate);
  return { endpoint, secret };
}
