import type { JSONRPCResponse } from 'json-rpc-2.0';

/** The tool's value as JSON text, kept beside the value on a tools/call result (invisible to JSON). */
const STRUCTURED_JSON = Symbol('structuredContent as JSON text');

interface ToolCallResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  [STRUCTURED_JSON]?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A tools/call result. MCP carries the value twice, as `structuredContent` and as its serialised text
 * (for clients that read only `content`); the value is serialised once and the answer reuses that text.
 */
export function toolCallResult(value: unknown): ToolCallResult {
  const text = JSON.stringify(value) ?? 'null';
  // MCP wants an object in structuredContent; arrays and scalars travel in the text only.
  if (!isRecord(value)) return { content: [{ type: 'text', text }] };
  return { content: [{ type: 'text', text }], structuredContent: value, [STRUCTURED_JSON]: text };
}

function stringifyResponse(response: JSONRPCResponse): string {
  const result = response.result as ToolCallResult | undefined;
  const structured = isRecord(result) ? result[STRUCTURED_JSON] : undefined;
  if (structured === undefined || response.error) return JSON.stringify(response);
  // What JSON.stringify writes for { jsonrpc, id, result: { content, structuredContent } }: the value's
  // text once escaped in content[0].text and once as it is (toolCallResult makes no other key).
  return `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":{"content":[{"type":"text","text":${JSON.stringify(structured)}}],"structuredContent":${structured}}}`;
}

/** The body of an answer: what JSON.stringify would write, without serialising a tool's value twice. */
export function stringifyAnswer(answer: JSONRPCResponse | JSONRPCResponse[]): string {
  return Array.isArray(answer) ? `[${answer.map(stringifyResponse).join(',')}]` : stringifyResponse(answer);
}
