import type { z } from 'zod';

/** MCP tool annotations: hints for the client (and the user it asks), never a security boundary. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** True when the tool reaches beyond Tributary (e.g. fetches a URL, calls an image service). */
  openWorldHint: boolean;
}

/**
 * One agent tool = one row: the MCP description, the zod schema of its arguments (its JSON Schema is the
 * tool's `inputSchema`) and the GraphQL operation it runs. Aliases in the document give the documented
 * output names, so the result needs no hand mapping.
 */
export interface ToolRow<Args extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** The arguments, without `access_token` (every tool accepts that one; the facade strips it). */
  args: Args;
  document: string;
  /** GraphQL variables from the validated arguments; omitted, the operation takes none. */
  variables?: (args: z.output<Args>) => Record<string, unknown>;
  /** The field of `data` that is the result; omitted, the whole of `data` is. */
  select?: string;
  /** Other names agents use for this tool; they resolve to it. */
  aliases?: string[];
  /** Callable without any token (the GraphQL field must be public too). */
  public?: boolean;
}

/** A row with its argument types checked against its `variables` function. */
export function defineTool<Args extends z.ZodObject>(row: ToolRow<Args>): ToolRow {
  return row as unknown as ToolRow;
}

export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
