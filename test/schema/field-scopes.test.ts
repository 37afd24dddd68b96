import { describe, expect, it } from 'vitest';
import { getSchema } from '../../schema/index.ts';

describe('field-level scopes', () => {
  it('every root field declares who may call it (public or a token scope)', () => {
    const schema = getSchema();
    const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(
      (t) => t !== null && t !== undefined,
    );
    const undeclared: string[] = [];
    let checked = 0;
    for (const root of roots) {
      for (const field of Object.values(root.getFields())) {
        checked++;
        const options = (field.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions;
        if (!options?.authScopes) undeclared.push(`${root.name}.${field.name}`);
      }
    }
    expect(checked).toBeGreaterThan(5);
    expect(undeclared).toEqual([]);
  });
});
