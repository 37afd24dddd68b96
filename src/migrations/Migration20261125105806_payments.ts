import { Migration } from '@mikro-orm/migrations';

export class Migration20261125105806_payments extends Migration {
  override name = 'Migration20261125105806_payments';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "auto_reload_settings" ("account_id" uuid not null, "enabled" boolean not null, "threshold_credits" int not null, "package_id" varchar(50) null, "reload_credits" int not null, "reload_amount_cents" int not null, "payment_method_id" varchar(255) null, "last_status" text null, "last_reason" varchar(500) null, "last_triggered_at" timestamptz null, "in_flight_since" timestamptz null, "updated_at" timestamptz not null, primary key ("account_id"));`,
    );

    this.addSql(
      `create table "checkout_sessions" ("id" uuid not null, "account_id" uuid not null, "provider" text not null, "provider_session_id" varchar(255) not null, "ui_mode" text not null, "credits" int not null, "amount_cents" int not null, "currency" varchar(3) not null, "package_id" varchar(50) null, "save_payment_method" boolean not null, "success_path" varchar(2000) null, "provenance" varchar(100) null, "status" text not null default 'open', "client_secret_hash" varchar(64) null, "expires_at" timestamptz not null, "created_at" timestamptz not null, "completed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "checkout_sessions_account_id_index" on "checkout_sessions" ("account_id");`);
    this.addSql(
      `alter table "checkout_sessions" add constraint "checkout_sessions_provider_session_id_unique" unique ("provider_session_id");`,
    );

    this.addSql(
      `create table "payments" ("id" uuid not null, "account_id" uuid not null, "reference" varchar(255) not null, "kind" text not null, "credits" int not null, "amount_cents" int not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "payments_account_id_index" on "payments" ("account_id");`);
    this.addSql(`alter table "payments" add constraint "payments_reference_unique" unique ("reference");`);

    this.addSql(
      `create table "payment_customers" ("id" uuid not null, "account_id" uuid not null, "provider" text not null, "customer_id" varchar(255) not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "payment_customers" add constraint "payment_customers_account_id_provider_unique" unique ("account_id", "provider");`,
    );

    this.addSql(
      `create table "saved_cards" ("id" uuid not null, "account_id" uuid not null, "provider" text not null, "payment_method_id" varchar(255) not null, "customer_id" varchar(255) null, "brand" varchar(30) not null, "last4" varchar(4) not null, "exp_month" int not null, "exp_year" int not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "saved_cards_account_id_index" on "saved_cards" ("account_id");`);
    this.addSql(
      `alter table "saved_cards" add constraint "saved_cards_account_id_payment_method_id_unique" unique ("account_id", "payment_method_id");`,
    );

    this.addSql(
      `alter table "auto_reload_settings" add constraint "auto_reload_settings_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "auto_reload_settings" add constraint "auto_reload_settings_last_status_check" check ("last_status" in ('succeeded', 'declined', 'authentication_required', 'daily_cap_reached', 'failed'));`,
    );

    this.addSql(
      `alter table "checkout_sessions" add constraint "checkout_sessions_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "checkout_sessions" add constraint "checkout_sessions_provider_check" check ("provider" in ('sandbox', 'stripe'));`,
    );
    this.addSql(
      `alter table "checkout_sessions" add constraint "checkout_sessions_ui_mode_check" check ("ui_mode" in ('hosted', 'embedded'));`,
    );
    this.addSql(
      `alter table "checkout_sessions" add constraint "checkout_sessions_status_check" check ("status" in ('open', 'completed', 'declined', 'expired'));`,
    );

    this.addSql(
      `alter table "payments" add constraint "payments_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "payments" add constraint "payments_kind_check" check ("kind" in ('checkout', 'auto_reload'));`,
    );

    this.addSql(
      `alter table "payment_customers" add constraint "payment_customers_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "payment_customers" add constraint "payment_customers_provider_check" check ("provider" in ('sandbox', 'stripe'));`,
    );

    this.addSql(
      `alter table "saved_cards" add constraint "saved_cards_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "saved_cards" add constraint "saved_cards_provider_check" check ("provider" in ('sandbox', 'stripe'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "auto_reload_settings" cascade;`);
    this.addSql(`drop table if exists "checkout_sessions" cascade;`);
    this.addSql(`drop table if exists "payments" cascade;`);
    this.addSql(`drop table if exists "payment_customers" cascade;`);
    this.addSql(`drop table if exists "saved_cards" cascade;`);
  }
}
