import { Migration } from '@mikro-orm/migrations';

export class Migration20261122073154_initial extends Migration {
  override name = 'Migration20261122073154_initial';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "accounts" ("id" uuid not null, "email" varchar(320) not null, "first_name" varchar(200) null, "last_name" varchar(200) null, "avatar_key" varchar(500) null, "is_insider" boolean not null default false, "is_patron" boolean not null default false, "is_admin" boolean not null default false, "provenance" varchar(100) null, "credit_balance" int not null default 0, "credits_updated_at" timestamptz not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "accounts" add constraint "accounts_email_unique" unique ("email");`);

    this.addSql(
      `create table "access_tokens" ("id" uuid not null, "account_id" uuid not null, "kind" text not null default 'pat', "name" varchar(200) not null, "token_hash" varchar(64) not null, "display_prefix" varchar(24) not null, "scopes" text[] not null, "expires_at" timestamptz null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "access_tokens_account_id_index" on "access_tokens" ("account_id");`);
    this.addSql(
      `alter table "access_tokens" add constraint "access_tokens_token_hash_unique" unique ("token_hash");`,
    );

    this.addSql(
      `create table "credit_transactions" ("id" uuid not null, "seq" bigserial, "account_id" uuid not null, "type" text not null, "amount" int not null, "balance_after" int not null, "ref" varchar(200) null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "credit_transactions" add constraint "credit_transactions_seq_unique" unique ("seq");`,
    );
    this.addSql(
      `create index "credit_transactions_account_id_seq_index" on "credit_transactions" ("account_id", "seq");`,
    );

    this.addSql(
      `alter table "accounts" add constraint "accounts_credit_balance_non_negative" check (credit_balance >= 0);`,
    );

    this.addSql(
      `alter table "access_tokens" add constraint "access_tokens_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "access_tokens" add constraint "access_tokens_kind_check" check ("kind" in ('pat', 'verified_email', 'oauth'));`,
    );

    this.addSql(
      `alter table "credit_transactions" add constraint "credit_transactions_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "credit_transactions" add constraint "credit_transactions_type_check" check ("type" in ('grant', 'purchase', 'debit', 'refund', 'auto_reload'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "access_tokens" drop constraint "access_tokens_account_id_foreign";`);
    this.addSql(
      `alter table "credit_transactions" drop constraint "credit_transactions_account_id_foreign";`,
    );

    this.addSql(`drop table if exists "accounts" cascade;`);
    this.addSql(`drop table if exists "access_tokens" cascade;`);
    this.addSql(`drop table if exists "credit_transactions" cascade;`);
  }
}
