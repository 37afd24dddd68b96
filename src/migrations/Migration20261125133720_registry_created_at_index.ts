import { Migration } from '@mikro-orm/migrations';

export class Migration20261125133720_registry_created_at_index extends Migration {
  override name = 'Migration20261125133720_registry_created_at_index';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "registry_recordings_created_at_index" on "registry_recordings" ("created_at");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "registry_recordings_created_at_index";`);
  }
}
