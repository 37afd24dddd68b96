import type { MikroORM } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { runSql } from '../../src/platform/db/direct-sql.ts';
import { PreparedStatementNames } from '../../src/platform/db/prepared-statements.ts';
import { useOneConnectionOrms } from '../support/orm.ts';

describe('which statements are prepared', () => {
  it('a text from its second use, under one name from then on', () => {
    const names = new PreparedStatementNames();
    const text = 'select id from accounts where id = $1';
    expect(names.nameFor(text)).toBeNull();
    const name = names.nameFor(text);
    expect(name).toMatch(/^tributary_\d+$/);
    expect(names.nameFor(text)).toBe(name);
    expect(names.size).toBe(1);
  });

  it('never a statement answering with `*` columns, whose result type a migration can change', () => {
    const names = new PreparedStatementNames();
    for (const text of [
      'select * from stored_files where id = $1',
      'select f.* from stored_files f where f.id = $1',
      'update accounts set name = $1 returning *',
    ]) {
      names.nameFor(text);
      expect(names.nameFor(text), text).toBeNull();
    }
    // A `*` inside a subquery does not shape the answer.
    const inner = 'select id from (select *, 1 as one from json_to_recordset($1::json) as x (id int)) j';
    names.nameFor(inner);
    expect(names.nameFor(inner)).not.toBeNull();
  });

  it('at most `capacity` names, and none again for a refused text', () => {
    const names = new PreparedStatementNames(2);
    const twice = (text: string) => {
      names.nameFor(text);
      return names.nameFor(text);
    };
    const first = twice('select $1::int');
    expect(first).not.toBeNull();
    expect(twice('select $1::text')).not.toBeNull();
    expect(twice('select $1::uuid')).toBeNull();
    names.refuse('select $1::int');
    expect(twice('select $1::int')).toBeNull();
    // A connection may still hold the refused text under its name: the name is not given again.
    expect(twice('select $1::uuid')).toBeNull();
    expect(names.size).toBe(1);
  });
});

describe('prepared statements on the ORM connections', () => {
  // One connection: every statement of a test runs on the same one.
  const { open } = useOneConnectionOrms('prepared');
  const preparedTexts = async (orm: MikroORM) =>
    (
      await orm.em
        .fork()
        .getConnection()
        .execute<{ statement: string }[]>('select statement from pg_prepared_statements')
    ).map((row) => row.statement);

  it('prepares a repeated statement once, and answers it as before', async () => {
    const orm = await open(true);
    const text = 'select $1::int + 1 as next';
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await runSql(orm.em.fork(), text, [i]));
    expect(answers).toEqual([[{ next: 1 }], [{ next: 2 }], [{ next: 3 }]]);
    expect(await preparedTexts(orm)).toContain(text);
  });

  it('prepares nothing when switched off (DATABASE_PREPARED_STATEMENTS=false)', async () => {
    const orm = await open(false);
    for (let i = 0; i < 3; i++) await runSql(orm.em.fork(), 'select $1::int as same', [i]);
    expect(await preparedTexts(orm)).toEqual([]);
  });

  it('runs a statement again unnamed when a migration changed its result type under it', async () => {
    const orm = await open(true);
    const em = () => orm.em.fork();
    await runSql(em(), 'create table prepared_probe (id int primary key, note text)');
    await runSql(em(), "insert into prepared_probe values (1, 'one')");
    const read = 'select note from prepared_probe where id = $1';
    expect(await runSql(em(), read, [1])).toEqual([{ note: 'one' }]);
    expect(await runSql(em(), read, [1])).toEqual([{ note: 'one' }]);
    expect(await preparedTexts(orm)).toContain(read);
    await runSql(em(), 'alter table prepared_probe alter column note type int using 7');
    // PostgreSQL refuses the prepared statement ("cached plan must not change result type").
    expect(await runSql(em(), read, [1])).toEqual([{ note: 7 }]);
    expect(await runSql(em(), read, [1])).toEqual([{ note: 7 }]);
  });
});
