import { z } from 'zod';
import { FACTS } from '../../../schema/facade-facts.ts';
import { PRICING_FIELDS, STORE_CATALOG_FIELDS } from '../../selections.ts';
import { defineTool, READ_ONLY, type ToolRow } from '../tool.ts';

export const catalogTools: ToolRow[] = [
  defineTool({
    name: 'get_pricing',
    title: 'Get pricing',
    description:
      `Credit pricing: 1 credit = ${FACTS.creditPriceUsd} USD, credits per human and per AI song, the optional token offset, ` +
      'credit bundles with their discounts, auto-reload availability. Credits never expire.',
    annotations: READ_ONLY,
    args: z.object({}),
    document: /* GraphQL */ `
      query AgentGetPricing {
        pricing { ${PRICING_FIELDS} }
      }
    `,
    select: 'pricing',
    aliases: ['pricing'],
    public: true,
  }),
  defineTool({
    name: 'get_distribution_stores',
    title: 'Get distribution stores',
    description:
      'The store catalog: storeId, name, featured, enabledByDefault and text aliases usable in place of ' +
      'the id; the default store ids; and how a store selection is read (selectionSemantics).',
    annotations: READ_ONLY,
    args: z.object({}),
    document: /* GraphQL */ `
      query AgentGetDistributionStores {
        distributionStores { ${STORE_CATALOG_FIELDS} }
      }
    `,
    select: 'distributionStores',
    aliases: ['list_stores', 'get_stores'],
    public: true,
  }),
  defineTool({
    name: 'get_metadata_rules',
    title: 'Get metadata rules',
    description:
      'The full metadata policy (artist names, title casing, writers, UPC, AI disclosure, cover songs) as ' +
      'markdown and as rules with severity and the field paths they check. Read the short hitlist ' +
      'resource mcp://docs/metadata-rules-hitlist first.',
    annotations: READ_ONLY,
    args: z.object({}),
    document: /* GraphQL */ `
      query AgentGetMetadataRules {
        metadataRules {
          version
          markdown
          rules { id severity topic title description fieldPaths }
        }
      }
    `,
    select: 'metadataRules',
    aliases: ['metadata_rules', 'get_rules'],
    public: true,
  }),
  defineTool({
    name: 'get_release_schema',
    title: 'Get release schema',
    description:
      'The authoritative required fields of a release and a complete example payload (also the resource ' +
      'mcp://schemas/release-required).',
    annotations: READ_ONLY,
    args: z.object({}),
    document: /* GraphQL */ `
      query AgentGetReleaseSchema {
        releaseSchema: releaseSchemaWire
      }
    `,
    select: 'releaseSchema',
    aliases: ['release_schema'],
  }),
];
