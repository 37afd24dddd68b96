import {
  type DocumentNode,
  type GraphQLEnumType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  Kind,
  type OperationDefinitionNode,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
} from 'graphql';

/**
 * The facades speak the domain's strings (`queued`, `coverArt`, `release.approved`); GraphQL speaks
 * enum names (`QUEUED`, `COVER_ART`, `RELEASE_APPROVED`). A prepared facade operation translates at its
 * edges, so REST and agent bodies keep their documented values while the schema is typed.
 */
export interface EnumTranslation {
  /** Variables of an enum type (or a list of one): domain value → enum name. */
  variables: Map<string, GraphQLEnumType>;
  /** Where enum values sit in `data`, by response key: enum name → domain value. */
  output: OutputTree;
}

export type OutputTree = Map<string, GraphQLEnumType | OutputTree>;

export function enumTranslation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): EnumTranslation {
  const variables = new Map<string, GraphQLEnumType>();
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type as never);
    const named = type ? getNamedType(type) : undefined;
    if (named && isEnumType(named)) variables.set(definition.variable.name.value, named);
  }
  const output: OutputTree = new Map();
  const typeInfo = new TypeInfo(schema);
  const stack: OutputTree[] = [output];
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node) {
          const key = node.alias?.value ?? node.name.value;
          const type = typeInfo.getType();
          const named = type ? getNamedType(type) : undefined;
          const parent = stack[stack.length - 1]!;
          if (named && isEnumType(named)) {
            parent.set(key, named);
            stack.push(new Map());
            return;
          }
          const child = (parent.get(key) as OutputTree | undefined) ?? new Map();
          parent.set(key, child);
          stack.push(child);
        },
        leave() {
          stack.pop();
        },
      },
      [Kind.FRAGMENT_DEFINITION]: () => false,
    }),
  );
  return { variables, output: withoutEnumlessBranches(output) };
}

/** Drops the branches that hold no enum, so that translating an answer walks only where enums sit. */
function withoutEnumlessBranches(tree: OutputTree): OutputTree {
  const pruned: OutputTree = new Map();
  for (const [key, node] of tree) {
    if (isEnumType(node)) pruned.set(key, node);
    else {
      const child = withoutEnumlessBranches(node);
      if (child.size > 0) pruned.set(key, child);
    }
  }
  return pruned;
}

function enumNameOf(type: GraphQLEnumType, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const byValue = type.getValues().find((v) => v.value === value);
  return byValue ? byValue.name : value;
}

/** Facade variables in domain values → GraphQL enum names (a name, or an unknown value, passes as sent). */
export function toEnumNames(
  variables: Record<string, unknown> | undefined,
  translation: EnumTranslation,
): Record<string, unknown> | undefined {
  if (!variables || translation.variables.size === 0) return variables;
  const result = { ...variables };
  for (const [name, type] of translation.variables) {
    const value = result[name];
    result[name] = Array.isArray(value) ? value.map((v) => enumNameOf(type, v)) : enumNameOf(type, value);
  }
  return result;
}

/** GraphQL enum names in `data` → the domain values the facades document (in place). */
export function toDomainValues(data: unknown, tree: OutputTree): void {
  if (tree.size === 0 || data === null || typeof data !== 'object') return;
  if (Array.isArray(data)) {
    for (const item of data) toDomainValues(item, tree);
    return;
  }
  const record = data as Record<string, unknown>;
  for (const [key, node] of tree) {
    const value = record[key];
    if (value === undefined || value === null) continue;
    if (isEnumType(node)) {
      record[key] = Array.isArray(value) ? value.map((v) => domainValue(node, v)) : domainValue(node, value);
    } else toDomainValues(value, node);
  }
}

function domainValue(type: GraphQLEnumType, name: unknown): unknown {
  return typeof name === 'string' ? (type.getValue(name)?.value ?? name) : name;
}
