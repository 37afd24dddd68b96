import { randomUUID } from 'node:crypto';
import type { EntityMetadata, EntityName, EntityProperty } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/** PostgreSQL's bound on the parameters of one statement (a 16-bit count in the Bind message). */
const MAX_PARAMETERS = 65_535;

/**
 * Runs one statement with `$1, $2, …` parameters on the EntityManager's connection: its transaction
 * when it is in one, the pool otherwise. The text and the values go to pg as they are (the extended
 * protocol, as a bare `pg` client sends them): no query builder, no values escaped into the text, no
 * entity hydrated. Rows come as the ORM's connection parses them (timestamps as text, JSON parsed). A
 * failure comes back as MikroORM's exception for it (a unique violation is a
 * `UniqueConstraintViolationException`, …), as from a statement of the ORM's own.
 */
export async function runSql<Row extends object = Record<string, unknown>>(
  em: EntityManager,
  text: string,
  values: readonly unknown[] = [],
): Promise<Row[]> {
  try {
    const result = await em.getKysely<Record<string, never>>().executeQuery<Row>({
      sql: text,
      parameters: values,
      query: { kind: 'RawNode', sqlFragments: [text], parameters: [] },
      queryId: { queryId: randomUUID() },
    } as Parameters<ReturnType<EntityManager['getKysely']>['executeQuery']>[0]);
    return [...result.rows] as Row[];
  } catch (error) {
    throw em.getDriver().convertException(error as Error);
  }
}

/**
 * A JSON property's value already serialised: `insertRows` writes its text as it is instead of
 * serialising the value again (a submission writes the same payload into several rows).
 */
export class JsonText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** A row to insert, by the entity's property names; a relation is given as its id or as the entity. */
export type InsertRow<Entity> = { readonly [K in keyof Entity]?: unknown };

interface Column {
  field: string;
  value: (row: Readonly<Record<string, unknown>>) => unknown;
}

interface InsertPlan {
  table: string;
  head: string;
  columns: Column[];
}

const plans = new WeakMap<EntityMetadata, InsertPlan>();

function columnOf(em: EntityManager, meta: EntityMetadata, prop: EntityProperty): Column {
  const platform = em.getPlatform();
  const referenced = prop.kind === 'm:1' || prop.kind === '1:1' ? (prop.referencedPKs?.[0] ?? 'id') : null;
  const type = prop.customType;
  const missing = () => {
    throw new Error(`insertRows: ${meta.className}.${prop.name} is required and was not given.`);
  };
  return {
    field: prop.fieldNames[0]!,
    value: (row) => {
      let value = row[prop.name];
      if (value === undefined) {
        if (prop.onCreate) value = prop.onCreate(row as never, em);
        else if (prop.default !== undefined) value = prop.default;
        else if (prop.nullable) value = null;
        else missing();
      }
      if (value === null || value === undefined) return null;
      if (value instanceof JsonText) return value.text;
      if (referenced && typeof value === 'object') value = (value as Record<string, unknown>)[referenced];
      return type && !referenced ? type.convertToDatabaseValue(value, platform, { mode: 'query' }) : value;
    },
  };
}

/** The entity's table and columns as the ORM writes them: owned relations as their keys, never a serial. */
function planFor(em: EntityManager, entity: EntityName): InsertPlan {
  const meta = em.getMetadata().get(entity);
  let plan = plans.get(meta);
  if (!plan) {
    // What the plan does not map is refused rather than written wrong: embeddables, versions,
    // composite keys of a relation.
    if (meta.props.some((prop) => prop.kind === 'embedded' || prop.embedded || prop.version))
      throw new Error(`insertRows: ${meta.className} has embedded or version properties.`);
    const props = meta.props.filter(
      (prop) =>
        prop.persist !== false &&
        !prop.autoincrement &&
        !prop.formula &&
        !prop.generated &&
        (prop.kind === 'scalar' || prop.kind === 'm:1' || (prop.kind === '1:1' && prop.owner)),
    );
    if (props.some((prop) => prop.fieldNames.length !== 1))
      throw new Error(`insertRows: ${meta.className} has a property on several columns.`);
    const columns = props.map((prop) => columnOf(em, meta, prop));
    plan = {
      table: meta.tableName,
      head: `insert into "${meta.tableName}" (${columns.map((c) => `"${c.field}"`).join(', ')}) values `,
      columns,
    };
    plans.set(meta, plan);
  }
  return plan;
}

/**
 * Inserts rows of one entity in one statement (`insert … values (…), (…)`, parameterised), the columns
 * and values as the ORM maps them: the entity's `onCreate` values (ids, timestamps) and defaults fill
 * what a row leaves out, JSON properties are serialised by their type. The rows are not entities:
 * nothing is hydrated or tracked, and no change set is computed. More rows than one statement's
 * parameters allow go in as many statements as needed (never for the rows of one release).
 */
export async function insertRows<Entity extends object>(
  em: EntityManager,
  entity: EntityName<Entity>,
  rows: readonly InsertRow<Entity>[],
): Promise<void> {
  if (rows.length === 0) return;
  const plan = planFor(em, entity as EntityName);
  const width = plan.columns.length;
  const perStatement = Math.floor(MAX_PARAMETERS / width);
  for (let start = 0; start < rows.length; start += perStatement) {
    const batch = rows.slice(start, start + perStatement);
    const values: unknown[] = new Array(batch.length * width);
    const tuples: string[] = new Array(batch.length);
    let n = 0;
    for (let r = 0; r < batch.length; r++) {
      const row = batch[r] as Readonly<Record<string, unknown>>;
      const slots: string[] = new Array(width);
      for (let c = 0; c < width; c++) {
        values[n] = plan.columns[c]!.value(row);
        slots[c] = `$${++n}`;
      }
      tuples[r] = `(${slots.join(', ')})`;
    }
    await runSql(em, plan.head + tuples.join(', '), values);
  }
}
