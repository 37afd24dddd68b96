import type { AppConfig } from '../../src/platform/config.ts';
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
    scopes_supported: SCOPES_SUPPORTED,
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
