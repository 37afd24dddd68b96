import { Migration } from '@mikro-orm/migrations';

export class Migration20261122085835_webhooks extends Migration {
  override name = 'Migration20261122085835_webhooks';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "webhook_dispatch_cursor" ("id" varchar(50) not null, "cursor" bigint not null, primary key ("id"));`,
    );

    this.addSql(
      `create table "webhook_endpoints" ("id" uuid not null, "account_id" uuid not null, "url" text not null, "description" varchar(500) null, "event_types" text[] not null, "active" boolean not null default true, "failure_count" int not null default 0, "secret_sealed" text not null, "secret_prefix" varchar(20) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "disabled_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "webhook_endpoints_account_id_index" on "webhook_endpoints" ("account_id");`);

    this.addSql(
      `create table "webhook_deliveries" ("id" uuid not null, "endpoint_id" uuid not null, "event_id" bigint not null, "event_cursor" bigint not null, "event_type" varchar(100) not null, "release_id" uuid null, "payload" jsonb not null, "payload_hash" varchar(64) not null, "status" text not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz null, "response_status" int null, "latency_ms" int null, "last_error" text null, "created_at" timestamptz not null, "delivered_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_deliveries_status_next_attempt_at_index" on "webhook_deliveries" ("status", "next_attempt_at");`,
    );
    this.addSql(
      `create index "webhook_deliveries_endpoint_id_created_at_index" on "webhook_deliveries" ("endpoint_id", "created_at");`,
    );
    this.addSql(
      `create index "webhook_deliveries_endpoint_id_release_id_payload_hash_index" on "webhook_deliveries" ("endpoint_id", "release_id", "payload_hash");`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_event_id_unique" unique ("endpoint_id", "event_id");`,
    );

    this.addSql(
      `alter table "webhook_endpoints" add constraint "webhook_endpoints_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_status_check" check ("status" in ('pending', 'succeeded', 'failed', 'suppressed'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_endpoint_id_foreign";`);

    this.addSql(`drop table if exists "webhook_dispatch_cursor" cascade;`);
    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
  }
}
