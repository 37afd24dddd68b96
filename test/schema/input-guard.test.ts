import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { MAX_VARIABLE_DEPTH, refuseHostileInput } from '../../schema/input-guard.ts';

const document = parse('query Q($input: JSON) { __typename }');

/** An object nesting `depth` levels under the root: { a: { a: … 'leaf' } }. */
function nested(depth: number, leaf: unknown = 'x'): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('refuseHostileInput', () => {
  it('names the first string holding NUL, in document order, by its path', () => {
    const variables = {
      input: { release: { title: 'fine', tags: ['a', 'b\u0000'] }, tracks: [{ title: 'c\u0000' }] },
    };
    const refused = refuseHostileInput(document, variables);
    expect(refused?.message).toMatch(/^input\.release\.tags\[1\] contains a NUL character/);
    expect(refused?.originalError).toMatchObject({
      code: 'invalid_string',
      details: [{ path: 'input.release.tags[1]', message: 'contains a NUL character' }],
    });
    expect(refuseHostileInput(document, { list: [['ok', '\u0000']] })?.message).toMatch(/^list\[0\]\[1\] /);
  });

  it('refuses nesting beyond the bound, even after a NUL, and takes nesting up to it', () => {
    // The root's members sit at depth 1: the leaf of `nested(n)` under a member sits at depth n + 1.
    expect(refuseHostileInput(document, { input: nested(MAX_VARIABLE_DEPTH - 1) })).toBeNull();
    const deep = refuseHostileInput(document, { first: 'a\u0000', input: nested(MAX_VARIABLE_DEPTH) });
    expect(deep?.originalError).toMatchObject({ code: 'json_too_deep' });
    // Far deeper than any stack would take if the walk recursed all the way down.
    expect(refuseHostileInput(document, { input: nested(200_000) })?.originalError).toMatchObject({
      code: 'json_too_deep',
    });
  });

  it('finds NUL in a literal of the document when the variables are clean', () => {
    const literal = parse('query Q { search(filter: { title: "a\\u0000" }) }');
    expect(refuseHostileInput(literal, { input: 'clean' })?.message).toMatch(/^filter\.title contains/);
    expect(refuseHostileInput(literal, null)?.message).toMatch(/^filter\.title contains/);
    expect(refuseHostileInput(document, { input: { title: 'clean', n: 1, b: true, z: null } })).toBeNull();
  });
});
