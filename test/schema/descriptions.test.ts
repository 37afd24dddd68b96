import { describe, expect, it } from 'vitest';
import { getSchema } from '../../schema/index.ts';

const BUILT_IN = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);

describe('the schema explains itself to the developers who generate clients from it', () => {
  const schema = getSchema();

  it('every type has a description', () => {
    const missing = Object.values(schema.getTypeMap())
      .filter((type) => !type.name.startsWith('__') && !BUILT_IN.has(type.name) && !type.description)
      .map((type) => type.name);
    expect(missing).toEqual([]);
  });

  it('every root field has a description', () => {
    const missing = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap(
      (root) =>
        Object.values(root?.getFields() ?? {}).flatMap((field) =>
          field.description ? [] : [`${root?.name}.${field.name}`],
        ),
    );
    expect(missing).toEqual([]);
  });
});
