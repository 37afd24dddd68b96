import { type PreparedOperation, prepareOperation } from '../../schema/execute.ts';

/** One readable resource = one row: its MCP description and the GraphQL operation behind its text. */
export interface ResourceRow {
  uri: string;
  name: string;
  title?: string;
  description: string;
  mimeType: string;
  /** MCP resource annotations: who it is for and how much it matters (from 0 to 1). */
  annotations?: { audience?: ('user' | 'assistant')[]; priority?: number };
  document: string;
  /** The field of `data` handed to `render`. */
  select: string;
  render: (value: unknown) => string;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

export const agentResources: ResourceRow[] = [
  {
    uri: 'mcp://docs/metadata-rules-hitlist',
    name: 'metadata-rules-hitlist',
    title: 'Metadata rules hitlist',
    description:
      'READ THIS FIRST, right after connecting: the metadata rules releases most often break ' +
      '(artist names, title casing, writers, AI disclosure, cover songs), in a few lines each.',
    mimeType: 'text/markdown',
    annotations: { audience: ['assistant'], priority: 1 },
    document: /* GraphQL */ `
      query AgentMetadataRulesHitlist {
        metadataRules {
          hitlist
        }
      }
    `,
    select: 'metadataRules',
    render: (value) => String((value as { hitlist?: unknown } | null)?.hitlist ?? ''),
  },
  {
    uri: 'mcp://docs/agent-guide',
    name: 'agent-guide',
    title: 'Agent guide',
    description:
      'How to use Tributary as an agent: authentication, the upload → draft → quote → submit → status flow, ' +
      'billing and errors.',
    mimeType: 'text/markdown',
    annotations: { audience: ['assistant'], priority: 0.8 },
    document: /* GraphQL */ `
      query AgentGuide {
        agentGuide
      }
    `,
    select: 'agentGuide',
    render: (value) => String(value ?? ''),
  },
  {
    uri: 'mcp://schemas/release-required',
    name: 'release-required',
    title: 'Release required fields',
    description: 'The authoritative required fields of a release and a complete example payload (JSON).',
    mimeType: 'application/json',
    annotations: { audience: ['assistant'], priority: 0.8 },
    document: /* GraphQL */ `
      query AgentReleaseSchema {
        releaseSchema: releaseSchemaWire
      }
    `,
    select: 'releaseSchema',
    render: json,
  },
];

export interface CompiledResource {
  row: ResourceRow;
  operation: PreparedOperation;
  descriptor: Record<string, unknown>;
}

export interface ResourceRegistry {
  resources: CompiledResource[];
  descriptors: Record<string, unknown>[];
  resolve(uri: string): CompiledResource | null;
}

export function compileResources(rows: ResourceRow[]): ResourceRegistry {
  const resources = rows.map(
    (row): CompiledResource => ({
      row,
      operation: prepareOperation(row.document),
      descriptor: {
        uri: row.uri,
        name: row.name,
        ...(row.title ? { title: row.title } : {}),
        description: row.description,
        mimeType: row.mimeType,
        ...(row.annotations ? { annotations: row.annotations } : {}),
      },
    }),
  );
  const byUri = new Map(resources.map((resource) => [resource.row.uri, resource]));
  if (byUri.size !== resources.length) throw new Error('Two agent resources share a URI.');
  return {
    resources,
    descriptors: resources.map((resource) => resource.descriptor),
    resolve: (uri) => byUri.get(uri) ?? null,
  };
}
