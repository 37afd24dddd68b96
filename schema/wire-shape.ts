import type { InputObjectRef, ObjectRef } from '@pothos/core';
import { builder } from './builder.ts';
import { enumName } from './enums.ts';

/**
 * One table per body the spec describes (release, track, writer, …) gives three things that must agree:
 * the GraphQL input type (camelCase names, one per field), the GraphQL object type that reads a stored body
 * back, and the conversion of a typed input into the body as the REST and agent surfaces send it (the
 * spec's "wire" names, which the domain stores). Each field names its wire name once, here.
 */

type Body = Record<string, unknown>;
type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type Scalar = 'String' | 'Int' | 'Float' | 'Boolean' | 'StoreKey';
// biome-ignore lint/suspicious/noExplicitAny: a table may hold any enum type of the builder.
type EnumRef = any;

export interface WireField {
  /** The spec's name of the field on REST and agent bodies (and in stored payloads). */
  wire: string;
  type: Scalar | WireShape | { enum: EnumRef; values: readonly string[] };
  list?: boolean;
  /** Entries of the list may be null (positional lists hold a place with null). */
  nullableItems?: boolean;
  description?: string;
  /** At most this many characters (strings, and each string of a list). */
  maxLength?: number;
  /** At most this many entries (lists). */
  maxItems?: number;
}

export interface WireShape {
  /** The output type's name. */
  name: string;
  description: string;
  fields: () => Record<string, WireField>;
  input: InputObjectRef<BuilderTypes, Body>;
  output: ObjectRef<BuilderTypes, Body>;
}

const isBody = (value: unknown): value is Body =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function matchesScalar(type: Scalar, value: unknown): boolean {
  switch (type) {
    case 'String':
      return typeof value === 'string';
    case 'Boolean':
      return typeof value === 'boolean';
    case 'Int':
      return Number.isSafeInteger(value);
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'StoreKey':
      return Number.isSafeInteger(value) || typeof value === 'string';
  }
}

/** One stored value as its declared type: anything else (a draft keeps what it was sent) reads as null. */
function readValue(field: WireField, value: unknown): unknown {
  const one = (item: unknown): unknown => {
    if (typeof field.type === 'string') return matchesScalar(field.type, item) ? item : null;
    if ('enum' in field.type) return field.type.values.includes(item as string) ? item : null;
    return isBody(item) ? item : null;
  };
  if (!field.list) return one(value);
  if (!Array.isArray(value)) return null;
  const items = value.map(one);
  return field.nullableItems ? items : items.filter((item) => item !== null);
}

const nestedShape = (field: WireField): WireShape | null =>
  typeof field.type === 'object' && !('enum' in field.type) ? field.type : null;

/**
 * One walk for both directions: renames each present field (`from` name → `to` name), recursing into
 * nested bodies; `leaf` converts a value that is not a nested body. Null is kept: it means something.
 */
function mapBody(
  shape: WireShape,
  source: Body,
  direction: 'toWire' | 'fromWire',
  leaf: (field: WireField, value: unknown) => unknown,
): Body {
  const target: Body = {};
  for (const [name, field] of Object.entries(shape.fields())) {
    const [from, to] = direction === 'toWire' ? [name, field.wire] : [field.wire, name];
    const value = source[from];
    if (value === undefined) continue;
    const nested = nestedShape(field);
    const one = (item: unknown) =>
      nested && isBody(item) ? mapBody(nested, item, direction, leaf) : nested ? item : leaf(field, item);
    target[to] = value === null ? null : Array.isArray(value) && nested ? value.map(one) : one(value);
  }
  return target;
}

/** A typed input value as the spec's body: wire names, nested bodies converted. */
export function toWire(shape: WireShape, input: Body): Body {
  return mapBody(shape, input, 'toWire', (_field, value) => value);
}

/** A body in the spec's wire names as the typed input (the inverse of toWire; unknown names are dropped). */
export function fromWire(shape: WireShape, body: Body): Body {
  return mapBody(shape, body, 'fromWire', (field, value) =>
    typeof field.type === 'object' && 'enum' in field.type && typeof value === 'string'
      ? enumName(value)
      : value,
  );
}

function graphqlType(field: WireField, side: 'input' | 'output') {
  if (typeof field.type === 'string') return field.type;
  if ('enum' in field.type) return field.type.enum;
  return side === 'input' ? field.type.input : field.type.output;
}

/** Declares a shape's input and output types from its table (fields are read lazily: shapes nest). */
export function wireShape(
  names: { output: string; input: string },
  description: string,
  fields: () => Record<string, WireField>,
): WireShape {
  const input = builder.inputRef<Body>(names.input);
  const output = builder.objectRef<Body>(names.output);
  const shape: WireShape = { name: names.output, description, fields, input, output };
  input.implement({
    description: `${description} Every field is optional here; the release rules say what submission requires.`,
    fields: (t) =>
      Object.fromEntries(
        Object.entries(fields()).map(([key, field]) => [
          key,
          t.field({
            // biome-ignore lint/suspicious/noExplicitAny: the type comes from the table.
            type: (field.list ? [graphqlType(field, 'input')] : graphqlType(field, 'input')) as any,
            required: field.list ? { list: false, items: !field.nullableItems } : false,
            description: describe(field),
            extensions: { wireName: field.wire, wireDescription: field.description ?? null },
            ...limits(field),
          }),
        ]),
      ),
  });
  output.implement({
    description: `${description} As stored: a value of another type (drafts keep what they were sent) reads as null.`,
    fields: (t) =>
      Object.fromEntries(
        Object.entries(fields()).map(([key, field]) => [
          key,
          t.field({
            // biome-ignore lint/suspicious/noExplicitAny: the type comes from the table.
            type: (field.list ? [graphqlType(field, 'output')] : graphqlType(field, 'output')) as any,
            nullable: field.list ? { list: true, items: Boolean(field.nullableItems) } : true,
            description: describe(field),
            extensions: { wireName: field.wire },
            resolve: (body: Body) => readValue(field, body[field.wire]) as never,
          }),
        ]),
      ),
  });
  return shape;
}

/** The zod limits of an input field (the column or payload limit its value may reach). */
function limits(field: WireField) {
  if (field.list) {
    const items = field.maxLength ? { items: { maxLength: field.maxLength } } : {};
    const count = field.maxItems ? { maxLength: field.maxItems } : {};
    return field.maxLength || field.maxItems ? { validate: { ...items, ...count } } : {};
  }
  return field.maxLength ? { validate: { maxLength: field.maxLength } } : {};
}

function describe(field: WireField): string {
  const wire = `\`${field.wire}\` on REST and agent bodies.`;
  return field.description ? `${field.description} ${wire}` : wire;
}
