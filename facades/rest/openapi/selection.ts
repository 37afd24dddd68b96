import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLOutputType,
  type GraphQLSchema,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
} from 'graphql';
import type { PreparedOperation } from '../../../schema/execute.ts';
import { enumSchema, nullable, scalarSchema } from './graphql-types.ts';
import type { JsonSchema } from './types.ts';

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
}

interface CollectedField {
  nodes: FieldNode[];
  parent: GraphQLCompositeType;
  /** Under @skip/@include or a narrower type condition: the key may be absent. */
  conditional: boolean;
}

function isConditional(selection: SelectionNode): boolean {
  return (selection.directives ?? []).some((d) => d.name.value === 'skip' || d.name.value === 'include');
}

/** Groups a selection set by response key (alias ?? name), following fragments, as execution does. */
function collectFields(
  walk: Walk,
  root: GraphQLCompositeType,
  parent: GraphQLCompositeType,
  selections: readonly SelectionNode[],
  conditional: boolean,
  into: Map<string, CollectedField>,
): void {
  for (const selection of selections) {
    const maybe = conditional || isConditional(selection);
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const existing = into.get(key);
      if (existing) {
        existing.nodes.push(selection);
        existing.conditional &&= maybe;
      } else {
        into.set(key, { nodes: [selection], parent, conditional: maybe });
      }
      continue;
    }
    const fragment =
      selection.kind === Kind.FRAGMENT_SPREAD ? walk.fragments.get(selection.name.value) : selection;
    if (!fragment) continue;
    const conditionName = fragment.typeCondition?.name.value;
    const narrowed = conditionName ? walk.schema.getType(conditionName) : parent;
    if (!narrowed || !isCompositeType(narrowed)) continue;
    const narrower = narrowed !== root && !(isObjectType(root) && isAbstractType(narrowed));
    collectFields(walk, root, narrowed, fragment.selectionSet.selections, maybe || narrower, into);
  }
}

function fieldSchema(walk: Walk, entry: CollectedField): JsonSchema {
  const [first] = entry.nodes;
  const name = first?.name.value ?? '';
  if (name === '__typename') return { type: 'string' };
  if (!isObjectType(entry.parent) && !isInterfaceType(entry.parent)) return {};
  const field = entry.parent.getFields()[name];
  if (!field) return {};
  return {
    ...outputSchema(walk, field.type, entry.nodes),
    ...(field.description ? { description: field.description } : {}),
    ...(field.deprecationReason ? { deprecated: true } : {}),
  };
}

function objectSchema(
  walk: Walk,
  type: GraphQLCompositeType,
  selections: readonly SelectionNode[],
): JsonSchema {
  const fields = new Map<string, CollectedField>();
  collectFields(walk, type, type, selections, false, fields);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, entry] of fields) {
    properties[key] = fieldSchema(walk, entry);
    // Every selected field is present in the response (null when nullable), unless conditional.
    if (!entry.conditional) required.push(key);
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

function outputSchema(walk: Walk, type: GraphQLOutputType, nodes: FieldNode[]): JsonSchema {
  if (isNonNullType(type)) return outputSchemaOfNullable(walk, type.ofType, nodes);
  return nullable(outputSchemaOfNullable(walk, type, nodes));
}

function outputSchemaOfNullable(walk: Walk, type: GraphQLOutputType, nodes: FieldNode[]): JsonSchema {
  if (isNonNullType(type)) return outputSchemaOfNullable(walk, type.ofType, nodes);
  if (isListType(type)) return { type: 'array', items: outputSchema(walk, type.ofType, nodes) };
  if (isScalarType(type)) return scalarSchema(type);
  if (isEnumType(type)) return enumSchema(type);
  const selections = nodes.flatMap((node) => node.selectionSet?.selections ?? []);
  return objectSchema(walk, type, selections);
}

/** The JSON Schema of an operation's `data`, derived from its selection set (aliases give the keys). */
export function dataSchema(prepared: PreparedOperation, schema: GraphQLSchema): JsonSchema {
  const { operation, document } = prepared;
  const root = rootType(schema, operation);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return objectSchema({ schema, fragments }, root, operation.selectionSet.selections);
}

function rootType(schema: GraphQLSchema, operation: OperationDefinitionNode): GraphQLCompositeType {
  const root = schema.getRootType(operation.operation);
  if (!root) throw new Error(`The schema has no ${operation.operation} type.`);
  return root;
}

/** The response body's schema: `data[select]`, or the whole of `data` when there is no select. */
export function responseSchema(
  prepared: PreparedOperation,
  schema: GraphQLSchema,
  select: string | undefined,
): JsonSchema {
  const data = dataSchema(prepared, schema);
  if (select === undefined) return data;
  const selected = data.properties?.[select];
  if (!selected) throw new Error(`select "${select}" is not a top-level response key of the document.`);
  return selected;
}
