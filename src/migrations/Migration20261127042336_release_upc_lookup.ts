import { Migration } from '@mikro-orm/migrations';

export class Migration20261127042336_release_upc_lookup extends Migration {
  override name = 'Migration20261127042336_release_upc_lookup';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "releases_upc_lookup" on "releases" ("account_id", (coalesce("upc", "payload" #>> '{release,upc}')));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "releases_upc_lookup";`);
  }
}
