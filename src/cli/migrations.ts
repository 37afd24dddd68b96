/**
 * Developer commands for the schema: `npm run db:migration:create [-- name]` writes a migration from
 * the difference between the entities and the committed snapshot; `npm run db:migration:check`
 * fails when the entities changed without a migration (CI runs it).
 */
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../app-database.ts';

const [command, name] = process.argv.slice(2);
const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const orm = await MikroORM.init(ormConfig(url, 2));
try {
  if (command === 'create') {
    const result = await orm.migrator.create(undefined, false, false, name);
    console.log(
      result.fileName ? `wrote ${result.fileName}: list it in src/migrations/index.ts` : 'no changes',
    );
  } else if (command === 'check') {
    const changed = await orm.migrator.checkSchema();
    if (changed) {
      console.error('The entities differ from the migrations: run npm run db:migration:create.');
      process.exitCode = 1;
    } else console.log('migrations match the entities');
  } else {
    console.error('usage: migrations create [name] | check');
    process.exitCode = 2;
  }
} finally {
  await orm.close();
}
