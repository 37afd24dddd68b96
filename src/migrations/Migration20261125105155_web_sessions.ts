import { Migration } from '@mikro-orm/migrations';

export class Migration20261125105155_web_sessions extends Migration {
  override name = 'Migration20261125105155_web_sessions';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "web_sessions" ("id" uuid not null, "account_id" uuid not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "web_sessions_account_id_index" on "web_sessions" ("account_id");`);
    this.addSql(
      `alter table "web_sessions" add constraint "web_sessions_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(`create index "web_sessions_expires_at_index" on "web_sessions" ("expires_at");`);

    this.addSql(
      `alter table "web_sessions" add constraint "web_sessions_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "web_sessions" cascade;`);
  }
}
