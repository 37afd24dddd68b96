import { Migration } from '@mikro-orm/migrations';

export class Migration20261127020807_sandbox_sample extends Migration {
  override name = 'Migration20261127020807_sandbox_sample';

  override up(): void | Promise<void> {
    this.addSql(`alter table "releases" add "sandbox_sample" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "releases" drop column "sandbox_sample";`);
  }
}
