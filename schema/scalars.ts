import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { builder } from './builder.ts';

builder.scalarType('DateTime', {
  description: 'An ISO 8601 timestamp in UTC.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString()),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (typeof value !== 'string' || Number.isNaN(date.getTime()))
      throw new GraphQLError('DateTime must be an ISO 8601 string.');
    return date;
  },
});

function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(literal);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, literal(field.value)]));
    default:
      throw new GraphQLError('Variables are not allowed inside JSON literals.');
  }
}

builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literal,
});
