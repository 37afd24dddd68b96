import type Provider from 'oidc-provider';
import { type AuthorizationCodes, mcpResourceUrl } from '../../schema/oauth/authorization.ts';
import type { AppServices } from '../../schema/services.ts';

/** Lifetime of a partner's code: as short as the browser flow's (docs/oauth.md). */
const CODE_TTL_SECONDS = 60;

/**
 * Codes for the partner flow, minted as the browser flow would after consent: a grant of the API's
 * scope on the MCP resource, and a code bound to its PKCE challenge and redirect URI. The token
 * endpoint redeems them like any other (single use, 60 seconds, the matching code_verifier).
 */
export function partnerAuthorizationCodes(app: AppServices, provider: Provider): AuthorizationCodes {
  const resource = mcpResourceUrl(app.config);
  return {
    mint: async ({ accountId, clientId, redirectUri, codeChallenge, scope }) => {
      const client = await provider.Client.find(clientId);
      if (!client) throw new Error(`partner client ${clientId} is not registered`);
      const grant = new provider.Grant({ accountId, clientId });
      grant.addResourceScope(resource, scope);
      const grantId = await grant.save();
      const code = new provider.AuthorizationCode({
        accountId,
        client,
        gty: 'authorization_code',
        grantId,
        redirectUri,
        codeChallenge,
        codeChallengeMethod: 'S256',
        scope,
        resource: [resource],
        expiresWithSession: false,
        expiresIn: CODE_TTL_SECONDS,
      });
      return { code: await code.save(), expiresIn: CODE_TTL_SECONDS };
    },
  };
}
