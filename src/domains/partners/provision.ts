import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, invalidRequest } from '../../platform/errors.ts';
import type { LimitRule, RateLimits } from '../../platform/rate-limit/index.ts';
import { createAccount, signIn } from '../accounts/index.ts';
import type { AuthorizationCodes } from './authorization-codes.ts';
import { findActivePartner } from './manage-partners.ts';
import type { Partner } from './partner.entity.ts';

/** Partner calls (create and authorize together) from one IP address, and for one client_id. */
export const PARTNER_CALLS_PER_IP: LimitRule = { name: 'partner-ip', points: 30, windowSeconds: 60 };
export const PARTNER_CALLS_PER_CLIENT: LimitRule = { name: 'partner-client', points: 120, windowSeconds: 60 };

/** The only scope a partner code carries (the API's). */
const PARTNER_SCOPE = 'svc:mcp';
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export interface PartnerClientRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge?: string | null;
  codeChallengeMethod?: string | null;
  scope?: string | null;
  ip: string;
}

export interface PartnerCode {
  authorizationCode: string;
  expiresIn: number;
  redirectUri: string;
  scope: string;
  provenance: string;
}

const invalidClient = () =>
  new AppError(
    'authentication_error',
    'invalid_client',
    'client_id is not an allowlisted partner, or redirect_uri is not the one registered for it.',
    { details: [{ path: 'client_id', message: 'not an allowlisted partner for this redirect_uri' }] },
  );

function checkPkce(request: PartnerClientRequest): string {
  const challenge = request.codeChallenge ?? '';
  if ((request.codeChallengeMethod ?? '') !== 'S256' || !S256_CHALLENGE.test(challenge)) {
    throw invalidRequest(
      'PKCE is required: send code_challenge (the base64url SHA-256 of your code_verifier, 43 characters) ' +
        'and code_challenge_method "S256".',
      [
        {
          path: request.codeChallengeMethod === 'S256' ? 'code_challenge' : 'code_challenge_method',
          message: 'PKCE S256 required',
        },
      ],
      'pkce_required',
    );
  }
  return challenge;
}

function checkScope(scope: string | null | undefined): string {
  const asked = (scope ?? PARTNER_SCOPE).split(' ').filter(Boolean);
  if (asked.length === 0 || asked.some((each) => each !== PARTNER_SCOPE)) {
    throw invalidRequest(
      `scope must be "${PARTNER_SCOPE}".`,
      [{ path: 'scope', message: 'unknown scope' }],
      'invalid_scope',
    );
  }
  return PARTNER_SCOPE;
}

/** Rate limits first (per IP, then per client_id), then the partner itself, then PKCE and scope. */
async function admit(
  em: EntityManager,
  limits: RateLimits,
  request: PartnerClientRequest,
): Promise<{ partner: Partner; challenge: string; scope: string }> {
  await limits.consume(PARTNER_CALLS_PER_IP, request.ip, 'Too many partner requests from this address.');
  await limits.consume(
    PARTNER_CALLS_PER_CLIENT,
    request.clientId.slice(0, 100),
    'Too many requests for this client_id.',
  );
  const partner = request.clientId ? await findActivePartner(em, request.clientId) : null;
  if (!partner?.redirectUris.includes(request.redirectUri)) throw invalidClient();
  return { partner, challenge: checkPkce(request), scope: checkScope(request.scope) };
}

async function codeFor(
  codes: AuthorizationCodes,
  partner: Partner,
  accountId: string,
  admitted: { challenge: string; scope: string },
  redirectUri: string,
): Promise<PartnerCode> {
  const minted = await codes.mint({
    accountId,
    clientId: partner.clientId,
    redirectUri,
    codeChallenge: admitted.challenge,
    scope: admitted.scope,
  });
  return {
    authorizationCode: minted.code,
    expiresIn: minted.expiresIn,
    redirectUri,
    scope: admitted.scope,
    provenance: partner.provenance,
  };
}

export interface PartnerAccountInput extends PartnerClientRequest {
  email: string;
  password: string;
  firstName?: string | null;
  lastName?: string | null;
}

/**
 * POST /accounts: a new account with a password, tagged with the partner's provenance, and a one-shot
 * authorization code for it (email_taken, weak_password, invalid_client, pkce_required).
 */
export async function createPartnerAccount(
  em: EntityManager,
  limits: RateLimits,
  codes: AuthorizationCodes,
  input: PartnerAccountInput,
): Promise<PartnerCode & { userId: string; email: string }> {
  const admitted = await admit(em, limits, input);
  // The code is minted before the account commits: no account is left behind without its code.
  return em.transactional(async (tem) => {
    const account = await createAccount(tem, {
      email: input.email,
      password: input.password,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      provenance: admitted.partner.provenance,
    });
    const code = await codeFor(codes, admitted.partner, account.id, admitted, input.redirectUri);
    return { userId: account.id, email: account.email, ...code };
  });
}

/**
 * POST /auth/authorize: an existing account's password for a one-shot authorization code
 * (invalid_credentials, account_locked, invalid_client, pkce_required).
 */
export async function authorizePartnerAccount(
  em: EntityManager,
  limits: RateLimits,
  codes: AuthorizationCodes,
  input: PartnerClientRequest & { email: string; password: string },
): Promise<PartnerCode & { userId: string; email: string }> {
  const admitted = await admit(em, limits, input);
  const account = await signIn(em, limits, { email: input.email, password: input.password, ip: input.ip });
  const code = await codeFor(codes, admitted.partner, account.id, admitted, input.redirectUri);
  return { userId: account.id, email: account.email, ...code };
}
