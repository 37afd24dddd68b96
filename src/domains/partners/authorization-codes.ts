/**
 * The port through which the partner and agent flows get an authorization code from the authorization
 * server (facades/oauth implements it on oidc-provider). The code is redeemed at the normal token
 * endpoint with the matching code_verifier.
 */
export interface AuthorizationCodes {
  mint(input: {
    accountId: string;
    clientId: string;
    redirectUri: string;
    codeChallenge: string;
    scope: string;
  }): Promise<{ code: string; expiresIn: number }>;
}

/** Until the authorization server is mounted (a process with no HTTP surface), no code can be minted. */
export const NO_AUTHORIZATION_CODES: AuthorizationCodes = {
  mint: async () => {
    throw new Error('the authorization server is not running in this process');
  },
};
