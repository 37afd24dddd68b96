import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

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
