import { Migration } from '@mikro-orm/migrations';

export class Migration20261125122054_sign_in_events extends Migration {
  override name = 'Migration20261125122054_sign_in_events';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "sign_in_events" ("id" bigserial primary key, "account_id" uuid not null, "kind" text not null, "occurred_at" timestamptz not null);`,
    );
    this.addSql(`create index "sign_in_events_occurred_at_index" on "sign_in_events" ("occurred_at");`);
    this.addSql(
      `create index "sign_in_events_account_id_occurred_at_index" on "sign_in_events" ("account_id", "occurred_at");`,
    );

    this.addSql(
      `alter table "sign_in_events" add constraint "sign_in_events_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "sign_in_events" add constraint "sign_in_events_kind_check" check ("kind" in ('failed', 'locked'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sign_in_events" cascade;`);
  }
}
