import { describe, expect, it } from 'vitest';
import { requestHash } from '../../src/domains/releases/request-hash.ts';

describe('requestHash', () => {
  it('does not depend on the order of keys, at any depth', () => {
    const a = { release: { title: 'T', upc: null }, tracks: [{ b: 1, a: [{ y: 2, x: 1 }] }] };
    const b = { tracks: [{ a: [{ x: 1, y: 2 }], b: 1 }], release: { upc: null, title: 'T' } };
    expect(requestHash(a)).toBe(requestHash(b));
    expect(requestHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells apart values, array order and a key sent as "__proto__"', () => {
    const base = requestHash({ tracks: [1, 2] });
    expect(requestHash({ tracks: [2, 1] })).not.toBe(base);
    expect(requestHash({ tracks: [1, '2'] })).not.toBe(base);
    const withProto = JSON.parse('{"tracks":[1,2],"__proto__":{"x":1}}');
    expect(requestHash(withProto)).not.toBe(base);
    expect(requestHash(JSON.parse('{"__proto__":{"x":1},"tracks":[1,2]}'))).toBe(requestHash(withProto));
  });

  it('leaves out undefined members, as the JSON of the request does', () => {
    expect(requestHash({ release: {}, releaseId: undefined })).toBe(requestHash({ release: {} }));
  });
});
