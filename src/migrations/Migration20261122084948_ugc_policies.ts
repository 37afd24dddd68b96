import { Migration } from '@mikro-orm/migrations';

export class Migration20261122084948_ugc_policies extends Migration {
  override name = 'Migration20261122084948_ugc_policies';

  override up(): void | Promise<void> {
    this.addSql(`alter table "releases" add "ugc_policies" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "releases" drop column "ugc_policies";`);
  }
}
