import { OAUTH_SCOPE } from '../../schema/oauth/authorization.ts';
import { type AppConfig, baseUrl } from '../../src/platform/config.ts';
import {
  agentDocsUrl,
  mcpEndpoint,
  resourceMetadataUrl,
  SCOPES_SUPPORTED,
  SERVER_CAPABILITIES,
  SERVER_DESCRIPTION,
  SERVER_NAME,
  SERVER_TITLE,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../rpc/protocol.ts';
import type { ResourceRow } from '../rpc/resources.ts';
import type { ToolRow } from '../rpc/tool.ts';

type Config = Pick<AppConfig, 'PUBLIC_URL'>;

/** RFC 9728 protected resource metadata for the agent endpoint (where the 401 challenge points). */
export function protectedResourceMetadata(config: Config): Record<string, unknown> {
  return {
    resource: mcpEndpoint(config),
    authorization_servers: [config.PUBLIC_URL],
    // What an agent can be granted through OAuth (svc:fraud is for personal access tokens only).
    scopes_supported: [OAUTH_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: SERVER_TITLE,
    resource_documentation: agentDocsUrl(config),
  };
}

/** The MCP server card: what a registry or client needs to know before connecting. */
export function serverCard(
  config: Config,
  version: string,
  tools: ToolRow[],
  resources: ResourceRow[],
): Record<string, unknown> {
  return {
    name: SERVER_NAME,
    title: SERVER_TITLE,
    version,
    description: SERVER_DESCRIPTION,
    documentationUrl: agentDocsUrl(config),
    transport: { type: 'streamable-http', url: mcpEndpoint(config) },
    protocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    authentication: {
      type: 'bearer',
      required: true,
      scopes: SCOPES_SUPPORTED,
      resourceMetadata: resourceMetadataUrl(config),
    },
    capabilities: SERVER_CAPABILITIES,
    tools: tools.map((tool) => tool.name),
    resources: resources.map((resource) => ({
      uri: resource.uri,
      name: resource.name,
      mimeType: resource.mimeType,
      description: resource.description,
    })),
  };
}

/** RFC 9727 API catalog: a linkset naming the REST API and the MCP endpoint with their descriptions. */
export function apiCatalog(config: Config): Record<string, unknown> {
  const base = baseUrl(config);
  return {
    linkset: [
      {
        anchor: base,
        'service-desc': [{ href: `${base}/openapi.json`, type: 'application/vnd.oai.openapi+json' }],
        'service-doc': [{ href: `${base}/`, type: 'application/json' }],
        status: [{ href: `${base}/status`, type: 'application/json' }],
      },
      {
        anchor: mcpEndpoint(config),
        'service-desc': [
          { href: `${config.PUBLIC_URL}/.well-known/mcp/server-card.json`, type: 'application/json' },
        ],
        'service-doc': [{ href: agentDocsUrl(config), type: 'text/markdown' }],
        'service-meta': [{ href: resourceMetadataUrl(config), type: 'application/json' }],
      },
    ],
  };
}
