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

builder.scalarType('StoreKey', {
  description:
    'A store: its `storeId` (an Int) or one of its aliases (a String, case-insensitive), as the store catalog ' +
    '(`distributionStores`) lists them.',
  serialize: (value) => value,
  parseValue: (value) => {
    if (Number.isSafeInteger(value) || (typeof value === 'string' && value.length > 0 && value.length <= 100))
      return value as number | string;
    throw new GraphQLError(
      'StoreKey must be a store id (an integer) or a store alias (a string of 1 to 100 characters).',
    );
  },
  parseLiteral: (node) => {
    if (node.kind === Kind.INT) return Number(node.value);
    if (node.kind === Kind.STRING && node.value.length > 0 && node.value.length <= 100) return node.value;
    throw new GraphQLError(
      'StoreKey must be a store id (an integer) or a store alias (a string of 1 to 100 characters).',
    );
  },
});
