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

const columnLists = new WeakMap<EntityMetadata, string>();

/**
 * The entity's columns, quoted and comma-separated, as a select list: what `select *` would read of
 * the table, named, so that the statement's answer keeps its shape when a migration adds a column (and
 * the statement can run prepared: `prepared-statements.ts`).
 */
export function columnList(em: EntityManager, entity: EntityName): string {
  const meta = em.getMetadata().get(entity);
  let list = columnLists.get(meta);
  if (list === undefined) {
    list = meta.props
      .filter((prop) => prop.persist !== false && !prop.formula && (prop.fieldNames?.length ?? 0) > 0)
      .flatMap((prop) => prop.fieldNames)
      .map((field) => `"${field}"`)
      .join(', ');
    columnLists.set(meta, list);
  }
  return list;
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

/** Appends the rows' values, column by column as the plan maps them, to `values`. */
function pushValues(plan: InsertPlan, rows: readonly InsertRow<object>[], values: unknown[]): void {
  for (const row of rows)
    for (const column of plan.columns) values.push(column.value(row as Readonly<Record<string, unknown>>));
}

/** `insert into … values ($k, …), (…)` for `count` rows of one plan, the first parameter `$offset+1`. */
function insertText(plan: InsertPlan, count: number, offset: number): string {
  const width = plan.columns.length;
  const tuples: string[] = new Array(count);
  let n = offset;
  for (let r = 0; r < count; r++) {
    const slots: string[] = new Array(width);
    for (let c = 0; c < width; c++) slots[c] = `$${++n}`;
    tuples[r] = `(${slots.join(', ')})`;
  }
  return plan.head + tuples.join(', ');
}

/** Statement texts by shape (the tables and their row counts): at most this many, each at most 64 KB. */
const SHAPES_KEPT = 500;
const KEPT_TEXT_CHARACTERS = 65_536;
const statementsByShape = new Map<string, string>();

/**
 * The text inserting `counts[i]` rows of each plan, as `insertTogether` writes it: the same string for
 * the same shape, built once. Building it cost a submission more than its values, and the one string
 * is what the prepared statements are looked up by (`prepared-statements.ts`).
 */
function statementFor(plans: readonly InsertPlan[], counts: readonly number[]): string {
  let shape = '';
  for (let i = 0; i < plans.length; i++) shape += `${plans[i]!.table}:${counts[i]};`;
  const known = statementsByShape.get(shape);
  if (known !== undefined) return known;
  let offset = 0;
  const texts = plans.map((plan, i) => {
    const text = insertText(plan, counts[i]!, offset);
    offset += counts[i]! * plan.columns.length;
    return text;
  });
  const last = texts.pop()!;
  const text =
    texts.length > 0 ? `with ${texts.map((t, i) => `"w${i}" as (${t})`).join(', ')} ${last}` : last;
  if (statementsByShape.size < SHAPES_KEPT && text.length <= KEPT_TEXT_CHARACTERS)
    statementsByShape.set(shape, text);
  return text;
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
  const perStatement = Math.floor(MAX_PARAMETERS / plan.columns.length);
  for (let start = 0; start < rows.length; start += perStatement) {
    const slice = rows.slice(start, start + perStatement);
    const values: unknown[] = [];
    pushValues(plan, slice, values);
    await runSql(em, statementFor([plan], [slice.length]), values);
  }
}

/** Rows of one entity, for `insertTogether`. */
export interface InsertPart {
  readonly entity: EntityName;
  readonly rows: readonly InsertRow<object>[];
}

/** Names the rows of one entity for `insertTogether`, typed by the entity. */
export function rowsOf<Entity extends object>(
  entity: EntityName<Entity>,
  rows: readonly InsertRow<Entity>[],
): InsertPart {
  return { entity: entity as EntityName, rows };
}

/**
 * Inserts the rows of several entities in one statement, each entity's `INSERT` as `insertRows` writes
 * it: the first ones as data-modifying `WITH` queries, the last as the statement itself. PostgreSQL
 * runs every part to completion, all or nothing, and checks foreign keys at the statement's end, so a
 * part may reference rows another part writes (tracks their release). One round trip instead of one
 * per entity; parts beyond one statement's parameters fall back to `insertRows`, one after another.
 */
export async function insertTogether(em: EntityManager, parts: readonly InsertPart[]): Promise<void> {
  const given = parts.filter((part) => part.rows.length > 0);
  if (given.length === 0) return;
  const plans = given.map((part) => planFor(em, part.entity));
  const parameters = given.reduce((sum, part, i) => sum + part.rows.length * plans[i]!.columns.length, 0);
  if (parameters > MAX_PARAMETERS) {
    for (const part of given) await insertRows(em, part.entity, part.rows);
    return;
  }
  const values: unknown[] = [];
  for (let i = 0; i < given.length; i++) pushValues(plans[i]!, given[i]!.rows, values);
  await runSql(
    em,
    statementFor(
      plans,
      given.map((part) => part.rows.length),
    ),
    values,
  );
}
