import {
  type GraphQLInputType,
  GraphQLNonNull,
  type GraphQLSchema,
  isInputObjectType,
  isInputType,
  isNonNullType,
  Kind,
  TypeInfo,
  typeFromAST,
  valueFromASTUntyped,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import type { PreparedOperation } from '../../../schema/execute.ts';
import type { RestRoute } from '../route.ts';
import { externalDefault, inputSchema, nullable } from './graphql-types.ts';
import { validatorLimits } from './limits.ts';
import type { JsonSchema, OpenApiParameter, OpenApiRequestBody } from './types.ts';

/** A JSON argument that carries a body of the spec: the typed input it mirrors (see wireBody in schema/). */
interface WireBody {
  inputType: string;
  list: boolean;
}

interface VariableInfo {
  type: GraphQLInputType;
  wireBody: WireBody | undefined;
  /** A JSON argument's own JSON Schema (its `jsonSchema` extension): what the free-form value holds. */
  jsonSchema: JsonSchema | undefined;
  /** The variable is NonNull and has no default: the request must carry it. */
  required: boolean;
  defaultValue: unknown;
  description: string | undefined;
  /** What the argument's validator refuses beyond its type (lengths, patterns, ranges). */
  limits: JsonSchema;
}

interface Usage {
  description?: string;
  defaultValue: unknown;
  limits: JsonSchema;
  wireBody?: WireBody;
  jsonSchema?: JsonSchema;
}

/** Where each variable is used: the argument or input field it feeds gives a description and a default. */
function variableUsages(prepared: PreparedOperation, schema: GraphQLSchema): Map<string, Usage> {
  const usages = new Map<string, Usage>();
  const typeInfo = new TypeInfo(schema);
  visit(
    prepared.operation,
    visitWithTypeInfo(typeInfo, {
      Variable(node, _key, parent) {
        if (usages.has(node.name.value) || !parent || Array.isArray(parent)) return;
        const holder = parent as { kind?: string; name?: { value: string } };
        if (holder.kind !== Kind.ARGUMENT && holder.kind !== Kind.OBJECT_FIELD) return;
        let description: string | undefined;
        let limits: JsonSchema = {};
        let wireBody: WireBody | undefined;
        let jsonSchema: JsonSchema | undefined;
        if (holder.kind === Kind.ARGUMENT) {
          description = typeInfo.getArgument()?.description ?? undefined;
          const argument = typeInfo.getArgument();
          wireBody = argument?.extensions?.wireBody as WireBody | undefined;
          jsonSchema = argument?.extensions?.jsonSchema as JsonSchema | undefined;
          const jsonType = argument ? inputSchema(argument.type).type : undefined;
          limits = validatorLimits(
            argument?.extensions?.validator,
            Array.isArray(jsonType) ? jsonType.find((t) => t !== 'null') : jsonType,
          );
        } else if (holder.kind === Kind.OBJECT_FIELD) {
          const objectType = typeInfo.getParentInputType();
          if (objectType && isInputObjectType(objectType) && holder.name) {
            description = objectType.getFields()[holder.name.value]?.description ?? undefined;
          }
        }
        const expected = typeInfo.getInputType();
        const defaultValue = expected ? externalDefault(typeInfo.getDefaultValue(), expected) : undefined;
        usages.set(node.name.value, {
          ...(description ? { description } : {}),
          defaultValue,
          limits,
          ...(wireBody ? { wireBody } : {}),
          ...(jsonSchema ? { jsonSchema } : {}),
        });
      },
    }),
  );
  return usages;
}

function variableInfos(prepared: PreparedOperation, schema: GraphQLSchema): Map<string, VariableInfo> {
  const usages = variableUsages(prepared, schema);
  const infos = new Map<string, VariableInfo>();
  for (const definition of prepared.operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    if (!type || !isInputType(type)) throw new Error(`Unknown input type of variable $${name}.`);
    const own = definition.defaultValue ? valueFromASTUntyped(definition.defaultValue) : undefined;
    const usage = usages.get(name);
    infos.set(name, {
      type,
      wireBody: usage?.wireBody,
      jsonSchema: usage?.jsonSchema,
      required: isNonNullType(type) && own === undefined,
      defaultValue: own ?? usage?.defaultValue,
      description: usage?.description,
      limits: usage?.limits ?? {},
    });
  }
  return infos;
}

/** Adds the default and lets the row's own `schema` (e.g. a range) refine what the type says. */
function withNotes(
  schema: JsonSchema,
  info: VariableInfo,
  override: Record<string, unknown> | undefined,
): JsonSchema {
  const description = [schema.description, info.limits.description].filter(Boolean).join(' ');
  return {
    ...schema,
    ...info.limits,
    ...(description ? { description } : {}),
    ...(info.defaultValue === undefined ? {} : { default: info.defaultValue }),
    ...override,
  };
}

/**
 * A body field's schema: its GraphQL type's; for a wire body the typed input's under wire names; for a
 * JSON argument with a `jsonSchema` extension, that schema.
 */
function bodySchema(info: VariableInfo, schema: GraphQLSchema): JsonSchema {
  if (info.jsonSchema) return isNonNullType(info.type) ? info.jsonSchema : nullable(info.jsonSchema);
  if (!info.wireBody) return inputSchema(info.type);
  const typed = schema.getType(info.wireBody.inputType);
  if (!typed || !isInputObjectType(typed))
    throw new Error(`Unknown wire body type ${info.wireBody.inputType}.`);
  const one = inputSchema(new GraphQLNonNull(typed), new Set(), { wire: true });
  const shape: JsonSchema = info.wireBody.list ? { type: 'array', items: one } : one;
  return isNonNullType(info.type) ? shape : nullable(shape);
}

export interface RouteInputs {
  parameters: OpenApiParameter[];
  requestBody: OpenApiRequestBody | undefined;
}

/** Path and query parameters and the JSON body of a route, typed from its GraphQL variables. */
export function routeInputs(
  route: RestRoute,
  prepared: PreparedOperation,
  schema: GraphQLSchema,
): RouteInputs {
  const infos = variableInfos(prepared, schema);
  const parameters: OpenApiParameter[] = [];
  const bodyProperties: Record<string, JsonSchema> = {};
  const bodyRequired: string[] = [];
  for (const [variable, source] of Object.entries(route.variables ?? {})) {
    const info = infos.get(variable);
    if (!info) throw new Error(`${route.operationId}: $${variable} is not a variable of the document.`);
    const description = source.description ?? info.description;
    if (source.from === 'body') {
      bodyProperties[source.name] = withNotes(
        { ...bodySchema(info, schema), ...(description ? { description } : {}) },
        info,
        source.schema,
      );
      if (info.required) bodyRequired.push(source.name);
      continue;
    }
    parameters.push({
      name: source.name,
      in: source.from,
      required: source.from === 'path' || info.required,
      ...(description ? { description } : {}),
      // A path, query or header value is never JSON null: describe the type without the null.
      schema: withNotes(stripNull(inputSchema(info.type)), info, source.schema),
    });
  }
  const hasBody = Object.keys(bodyProperties).length > 0;
  return {
    parameters,
    requestBody: hasBody
      ? {
          required: bodyRequired.length > 0,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: bodyProperties,
                ...(bodyRequired.length > 0 ? { required: bodyRequired } : {}),
              },
            },
          },
        }
      : undefined,
  };
}

function stripNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    const stripped: JsonSchema = { ...schema, type: types.length === 1 ? types[0] : types };
    if (schema.enum) stripped.enum = schema.enum.filter((value) => value !== null);
    return stripped;
  }
  if (schema.oneOf?.length === 2 && schema.oneOf[1]?.type === 'null' && schema.oneOf[0]) {
    const { oneOf: _, ...rest } = schema;
    return { ...schema.oneOf[0], ...rest };
  }
  return schema;
}
