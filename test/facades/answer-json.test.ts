import { createJSONRPCErrorResponse, createJSONRPCSuccessResponse, type JSONRPCResponse } from 'json-rpc-2.0';
import { describe, expect, it } from 'vitest';
import { stringifyAnswer, toolCallResult } from '../../facades/rpc/answer-json.ts';

const plain = (answer: JSONRPCResponse | JSONRPCResponse[]) => JSON.parse(JSON.stringify(answer));

describe('agent answers serialise a tool value once', () => {
  const values: unknown[] = [
    { releaseId: 'r1', stores: [{ storeId: 1, statusText: 'Live "now"', urlInStore: null }], pending: false },
    { nested: { unicode: 'Beyoncé — ✓ \u2028', emoji: '🎵', empty: {} } },
    {},
    [1, 2, 3],
    'a string',
    42,
    null,
  ];

  it.each(values.map((value) => [JSON.stringify(value), value]))('%s', (_, value) => {
    const response = createJSONRPCSuccessResponse(7, toolCallResult(value));
    const text = stringifyAnswer(response);
    // Byte for byte what JSON.stringify writes (the symbol-keyed text is invisible to it).
    expect(text).toBe(JSON.stringify(response));
    expect(JSON.parse(text)).toEqual(plain(response));
    const parsed = JSON.parse(text);
    expect(JSON.parse(parsed.result.content[0].text)).toEqual(value);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      expect(parsed.result.structuredContent).toEqual(value);
    } else {
      expect(parsed.result).not.toHaveProperty('structuredContent');
    }
  });

  it('keeps string and null ids, errors and batches as JSON.stringify writes them', () => {
    const batch: JSONRPCResponse[] = [
      createJSONRPCSuccessResponse('a"b', toolCallResult({ ok: true })),
      createJSONRPCErrorResponse(null, -32600, 'Invalid Request', { requestId: 'x' }),
      createJSONRPCSuccessResponse(3, { tools: [] }),
    ];
    expect(JSON.parse(stringifyAnswer(batch))).toEqual(plain(batch));
    expect(stringifyAnswer(batch[1] as JSONRPCResponse)).toBe(JSON.stringify(batch[1]));
  });
});
