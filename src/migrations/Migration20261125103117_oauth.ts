import { Migration } from '@mikro-orm/migrations';

export class Migration20261125103117_oauth extends Migration {
  override name = 'Migration20261125103117_oauth';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "oauth_models" ("key" varchar(64) not null, "kind" varchar(40) not null, "payload" jsonb not null, "grant_id" varchar(100) null, "uid" varchar(100) null, "account_id" uuid null, "expires_at" timestamptz null, "consumed_at" timestamptz null, primary key ("key"));`,
    );
    this.addSql(`create index "oauth_models_grant_id_index" on "oauth_models" ("grant_id");`);
    this.addSql(`create index "oauth_models_uid_index" on "oauth_models" ("uid");`);
    this.addSql(`create index "oauth_models_account_id_index" on "oauth_models" ("account_id");`);
    this.addSql(`create index "oauth_models_expires_at_index" on "oauth_models" ("expires_at");`);

    this.addSql(`alter table "accounts" add "password_hash" varchar(200) null;`);

    this.addSql(
      `alter table "access_tokens" add "grant_id" varchar(100) null, add "audience" varchar(500) null;`,
    );
    this.addSql(`create index "access_tokens_grant_id_index" on "access_tokens" ("grant_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "oauth_models" cascade;`);

    this.addSql(`drop index "access_tokens_grant_id_index";`);
    this.addSql(`alter table "access_tokens" drop column "grant_id", drop column "audience";`);

    this.addSql(`alter table "accounts" drop column "password_hash";`);
  }
}
