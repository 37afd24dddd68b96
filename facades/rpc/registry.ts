import { z } from 'zod';
import { type PreparedOperation, prepareOperation } from '../../schema/execute.ts';
import { normaliseToolName, suggestToolNames } from './suggest.ts';
import type { ToolAnnotations, ToolRow } from './tool.ts';

/** What `tools/list` shows for one tool. */
export interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations & { title: string };
}

export interface CompiledTool {
  row: ToolRow;
  operation: PreparedOperation;
  /** The row's arguments, refusing unknown keys (a misspelt argument should not silently fall back to a default). */
  validator: z.ZodObject;
  descriptor: ToolDescriptor;
  aliases: string[];
}

export interface ToolRegistry {
  tools: CompiledTool[];
  descriptors: ToolDescriptor[];
  /** A canonical name or an alias → the tool; null when neither. */
  resolve(name: string): CompiledTool | null;
  suggest(name: string): string[];
}

const ACCESS_TOKEN_ARGUMENT = z
  .string()
  .min(1)
  .optional()
  .describe(
    'A bearer token with scope svc:mcp, for clients that cannot send an Authorization header. ' +
      'Ignored when the header is present.',
  );

function inputSchemaOf(args: z.ZodObject): Record<string, unknown> {
  const schema = z.toJSONSchema(z.strictObject({ ...args.shape, access_token: ACCESS_TOKEN_ARGUMENT }), {
    io: 'input',
  }) as Record<string, unknown>;
  // MCP reads a schema without $schema as JSON Schema 2020-12, which is what zod emits.
  delete schema.$schema;
  return schema;
}

/**
 * Compiles the tool table once, at start-up: every document parsed and validated against the schema,
 * every JSON Schema generated, every name and alias checked for collisions.
 */
export function compileTools(rows: ToolRow[], extraAliases: Record<string, string[]> = {}): ToolRegistry {
  const byName = new Map<string, CompiledTool>();
  const names = new Map<string, string>();
  const claim = (name: string, tool: CompiledTool) => {
    const owner = names.get(name);
    if (owner !== undefined && owner !== tool.row.name) {
      throw new Error(`Agent tool name "${name}" is claimed by both ${owner} and ${tool.row.name}.`);
    }
    names.set(name, tool.row.name);
    byName.set(name, tool);
  };

  const tools = rows.map((row): CompiledTool => {
    const aliases = [...new Set([...(row.aliases ?? []), ...(extraAliases[row.name] ?? [])])];
    return {
      row,
      operation: prepareOperation(row.document),
      validator: row.args.strict(),
      aliases,
      descriptor: {
        name: row.name,
        title: row.title,
        description: row.description,
        inputSchema: inputSchemaOf(row.args),
        annotations: { title: row.title, ...row.annotations },
      },
    };
  });
  for (const tool of tools) {
    if (normaliseToolName(tool.row.name) !== tool.row.name) {
      throw new Error(`Agent tool name "${tool.row.name}" must be snake_case.`);
    }
    claim(tool.row.name, tool);
  }
  for (const tool of tools) for (const alias of tool.aliases) claim(alias, tool);

  return {
    tools,
    descriptors: tools.map((tool) => tool.descriptor),
    resolve: (name) => byName.get(name) ?? null,
    suggest: (name) => suggestToolNames(name, names),
  };
}
