import { mcpResourceUrl } from '../../schema/oauth/authorization.ts';
import type { AppConfig } from '../../src/platform/config.ts';

/** MCP protocol revisions this server speaks, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

/** The client's revision when this server speaks it, else the newest one (the client then decides). */
export function negotiateProtocolVersion(requested: unknown): string {
  return typeof requested === 'string' &&
    (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested)
    ? requested
    : LATEST_PROTOCOL_VERSION;
}

export function isSupportedProtocolVersion(version: string): boolean {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

export const SERVER_NAME = 'tributary';
export const SERVER_TITLE = 'Tributary music distribution';
export const SERVER_DESCRIPTION =
  'Distribute music to digital stores: upload audio and cover art, save drafts, quote, submit releases ' +
  'and follow their delivery.';

/** Capabilities: lists are static for a session, so no change notifications. */
export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
} as const;

export const INSTRUCTIONS =
  'Tributary distributes music to digital stores. Right after connecting, read the resource ' +
  'mcp://docs/metadata-rules-hitlist (resources/read): it lists the metadata rules releases most often ' +
  'break. Then read mcp://schemas/release-required (required fields and an example payload); ' +
  'mcp://docs/agent-guide explains the whole flow. Discover tools with tools/list; unknown tool names ' +
  'get suggestions. Authenticate with a bearer token of scope svc:mcp, or pass access_token as a tool ' +
  'argument. Submitting a release spends credits: confirm with the user first.';

/** Scopes a token for this resource may carry (kept in step with the accounts domain). */
export const SCOPES_SUPPORTED = ['svc:mcp', 'svc:fraud'];

export const mcpEndpoint = mcpResourceUrl;

export const resourceMetadataUrl = (config: Pick<AppConfig, 'PUBLIC_URL'>) =>
  `${config.PUBLIC_URL}/.well-known/oauth-protected-resource/api/mcp`;

export const agentDocsUrl = (config: Pick<AppConfig, 'PUBLIC_URL'>) => `${config.PUBLIC_URL}/api/mcp/docs`;
