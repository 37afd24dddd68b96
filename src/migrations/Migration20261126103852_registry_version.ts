import { Migration } from '@mikro-orm/migrations';

export class Migration20261126103852_registry_version extends Migration {
  override name = 'Migration20261126103852_registry_version';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "registry_version" ("id" int not null, "version" bigint not null default '0', primary key ("id"));`,
    );

    this.addSql(`drop index "registry_recordings_created_at_index";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "registry_version" cascade;`);

    this.addSql(
      `create index "registry_recordings_created_at_index" on "registry_recordings" ("created_at");`,
    );
  }
}
