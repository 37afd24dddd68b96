import { z } from 'zod';
import type { JsonSchema } from './types.ts';

/** The keywords of a validator's JSON Schema that tell a client a limit (the rest is the GraphQL type's). */
const LIMIT_KEYWORDS = [
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'description',
] as const;

/**
 * The limits an argument's zod validator enforces, as JSON Schema keywords for the REST reference, so the
 * document states exactly what the edge refuses. Refinements that JSON Schema cannot say are skipped.
 * `expectedType` (the GraphQL type's JSON type) picks the branch of a validator that accepts several.
 */
export function validatorLimits(validator: unknown, expectedType?: string): JsonSchema {
  if (!(validator instanceof z.ZodType)) return {};
  const full = z.toJSONSchema(validator, { unrepresentable: 'any', io: 'input' }) as Branch;
  const branches = leaves(full).filter((branch) => branch.type !== 'null');
  const chosen =
    branches.find((branch) => expectedType !== undefined && branch.type === expectedType) ??
    branches.find((branch) => branch.type === undefined) ??
    branches[0] ??
    {};
  const limits: Record<string, unknown> = {};
  for (const keyword of LIMIT_KEYWORDS) {
    const value = chosen[keyword];
    // zod's int() says "a safe integer": a bound no client meets, so not worth printing.
    if (value === undefined || (typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER))
      continue;
    limits[keyword] = value;
  }
  return limits as JsonSchema;
}

type Branch = Record<string, unknown> & { anyOf?: Branch[]; type?: unknown };

function leaves(schema: Branch): Branch[] {
  return schema.anyOf ? schema.anyOf.flatMap(leaves) : [schema];
}
