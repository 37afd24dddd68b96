import type { AppConfig } from '../../platform/config.ts';

/**
 * The one protected resource OAuth access tokens are issued for (RFC 8707): the MCP endpoint's URL.
 * Tokens carry it as their audience; /api/mcp and /v1 accept no other.
 */
export const mcpResourceUrl = (config: Pick<AppConfig, 'PUBLIC_URL'>) => `${config.PUBLIC_URL}/api/mcp`;

/** The scope OAuth clients are granted: full access to the account's API (as a PAT with svc:mcp). */
export const OAUTH_SCOPE = 'svc:mcp';
