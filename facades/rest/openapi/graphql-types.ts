import {
  astFromValue,
  type GraphQLEnumType,
  type GraphQLInputType,
  type GraphQLScalarType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  valueFromASTUntyped,
} from 'graphql';
import type { JsonSchema } from './types.ts';

/** JSON Schema of a scalar as it travels in JSON. Unknown custom scalars are left open (`{}`). */
export function scalarSchema(type: GraphQLScalarType): JsonSchema {
  switch (type.name) {
    case 'Int':
      return { type: 'integer' };
    case 'Float':
      return { type: 'number' };
    case 'String':
    case 'ID':
      return { type: 'string' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'DateTime':
      return { type: 'string', format: 'date-time' };
    case 'Date':
      return { type: 'string', format: 'date' };
    case 'JSON':
      return {};
    case 'StoreKey':
      return { type: ['integer', 'string'], description: 'A storeId or one of its aliases.' };
    default:
      return type.description ? { description: type.description } : {};
  }
}

/** REST writes an enum as the domain's string (the value behind the GraphQL name; see facade-values). */
export function enumSchema(type: GraphQLEnumType): JsonSchema {
  return { type: 'string', enum: type.getValues().map((value) => String(value.value)) };
}

/** Adds `null` to what a schema accepts. A schema without a `type` already accepts anything. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') {
    const widened: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (schema.enum) widened.enum = [...schema.enum, null];
    return widened;
  }
  if (Array.isArray(schema.type)) {
    return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  }
  if (schema.$ref || schema.oneOf) return { oneOf: [schema, { type: 'null' }] };
  return schema;
}

/** A GraphQL default value (internal form) as the JSON a client would send; undefined when none. */
export function externalDefault(value: unknown, type: GraphQLInputType): unknown {
  if (value === undefined) return undefined;
  const ast = astFromValue(value, type);
  return ast ? valueFromASTUntyped(ast) : undefined;
}

interface InputSchemaOptions {
  /**
   * Describe a body of the spec as REST and agent clients send it: fields under their wire names (the
   * `wireName` extension of a typed input field), and other names allowed (the spec's aliases).
   */
  wire?: boolean;
}

/** JSON Schema of an input type: non-null drops `null`, lists are arrays, input objects are objects. */
export function inputSchema(
  type: GraphQLInputType,
  seen: ReadonlySet<string> = new Set(),
  options: InputSchemaOptions = {},
): JsonSchema {
  if (isNonNullType(type)) return inputSchemaOfNullable(type.ofType, seen, options);
  return nullable(inputSchemaOfNullable(type, seen, options));
}

function inputSchemaOfNullable(
  type: GraphQLInputType,
  seen: ReadonlySet<string>,
  options: InputSchemaOptions,
): JsonSchema {
  if (isNonNullType(type)) return inputSchemaOfNullable(type.ofType, seen, options);
  if (isListType(type)) return { type: 'array', items: inputSchema(type.ofType, seen, options) };
  if (isScalarType(type)) return scalarSchema(type);
  if (isEnumType(type)) return enumSchema(type);
  if (!isInputObjectType(type)) return {};
  // A recursive input type is described once; the inner occurrence is an open object.
  if (seen.has(type.name)) return { type: 'object' };
  const inner = new Set(seen).add(type.name);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of Object.values(type.getFields())) {
    const schema = inputSchema(field.type, inner, options);
    const wireName = options.wire ? (field.extensions?.wireName as string | undefined) : undefined;
    const name = wireName ?? field.name;
    const description = wireName
      ? (field.extensions?.wireDescription as string | null | undefined)
      : field.description;
    const fallback = externalDefault(field.defaultValue, field.type);
    properties[name] = {
      ...schema,
      ...(description ? { description } : {}),
      ...(fallback === undefined ? {} : { default: fallback }),
      ...(field.deprecationReason ? { deprecated: true } : {}),
    };
    if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(name);
  }
  return {
    type: 'object',
    ...(type.description ? { description: type.description } : {}),
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: Boolean(options.wire),
  };
}
