import {
  ISSUED_TOKEN_FIELDS,
  PARTNER_AUTHORIZATION_FIELDS,
  PARTNER_CLIENT_ARGUMENTS,
  PARTNER_CLIENT_PARAMETERS,
} from '../../selections.ts';
import { bodyField, type RestRoute } from '../route.ts';

const TAG = 'Authentication';

const CLIENT_VARIABLES = {
  email: bodyField('email'),
  password: bodyField('password'),
  clientId: bodyField('client_id'),
  redirectUri: bodyField('redirect_uri'),
  codeChallenge: bodyField('code_challenge'),
  codeChallengeMethod: bodyField('code_challenge_method'),
  scope: bodyField('scope'),
  provenance: bodyField('provenance'),
};

export const partnerRoutes: RestRoute[] = [
  {
    operationId: 'createPartnerAccount',
    method: 'POST',
    path: '/accounts',
    summary: 'Partners: create an account (PKCE S256 required); 201 with a one-shot authorization code',
    tag: TAG,
    auth: 'public',
    document: `mutation CreatePartnerAccount(${PARTNER_CLIENT_PARAMETERS}, $firstName: String, $lastName: String) {
      created: createPartnerAccount(${PARTNER_CLIENT_ARGUMENTS}, firstName: $firstName, lastName: $lastName) {
        ${PARTNER_AUTHORIZATION_FIELDS} } }`,
    variables: {
      ...CLIENT_VARIABLES,
      firstName: bodyField('first_name'),
      lastName: bodyField('last_name'),
    },
    select: 'created',
    status: 201,
  },
  {
    operationId: 'authorizePartnerAccount',
    method: 'POST',
    path: '/auth/authorize',
    summary: 'Partners: authorize an existing account by password; 200 with a one-shot authorization code',
    tag: TAG,
    auth: 'public',
    document: `mutation AuthorizePartnerAccount(${PARTNER_CLIENT_PARAMETERS}) {
      authorized: authorizePartnerAccount(${PARTNER_CLIENT_ARGUMENTS}) { ${PARTNER_AUTHORIZATION_FIELDS} } }`,
    variables: CLIENT_VARIABLES,
    select: 'authorized',
  },
];

/** The issued-token answer in OAuth's names. */
export const verifiedEmailRoutes: RestRoute[] = [
  {
    operationId: 'requestVerifiedEmailChallenge',
    method: 'POST',
    path: '/agent-auth/verified-email/challenge',
    summary:
      'Mail a one-time 8-digit code; the same acknowledgement whether or not the address has an account',
    tag: TAG,
    auth: 'public',
    document: `mutation RequestVerifiedEmailChallenge($email: String!, $clientName: String, $scopes: [String!]) {
      challenge: requestVerifiedEmailChallenge(email: $email, clientName: $clientName, scopes: $scopes) {
        message claim_uri: claimUri expires_in: expiresIn } }`,
    variables: {
      email: bodyField('email'),
      clientName: bodyField('client_name'),
      scopes: bodyField('scopes'),
    },
    select: 'challenge',
  },
  {
    operationId: 'claimVerifiedEmailCode',
    method: 'POST',
    path: '/agent-auth/verified-email/claim',
    summary: 'Exchange the mailed code for a bearer token (201); 400 invalid_code or too_many_attempts',
    tag: TAG,
    auth: 'public',
    document: `mutation ClaimVerifiedEmailCode($email: String!, $code: String!) {
      claimed: claimVerifiedEmailCode(email: $email, code: $code) { ${ISSUED_TOKEN_FIELDS} } }`,
    variables: { email: bodyField('email'), code: bodyField('code') },
    select: 'claimed',
    status: 201,
  },
];
