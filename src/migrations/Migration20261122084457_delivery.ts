import { Migration } from '@mikro-orm/migrations';

export class Migration20261122084457_delivery extends Migration {
  override name = 'Migration20261122084457_delivery';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "deliveries" ("id" uuid not null, "release_id" uuid not null, "store_id" int not null, "status" text not null default 'queued', "status_text" varchar(300) not null, "url_in_store" varchar(1000) null, "reason" text null, "next_step_at" timestamptz null, "ugc_policy" varchar(50) null, "ddex_message" text null, "added_after_distribution" boolean not null default false, "status_before_takedown" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "deliveries_next_step_at_index" on "deliveries" ("next_step_at");`);
    this.addSql(
      `alter table "deliveries" add constraint "deliveries_release_id_store_id_unique" unique ("release_id", "store_id");`,
    );

    this.addSql(
      `create table "release_jobs" ("id" uuid not null, "release_id" uuid not null, "state" text not null default 'queued', "steps" jsonb not null, "errors" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "release_jobs" add constraint "release_jobs_release_id_unique" unique ("release_id");`,
    );

    this.addSql(
      `create table "sandbox_controls" ("id" varchar(50) not null, "offline" boolean not null default false, "offline_reason" text null, "instructions" jsonb not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );

    this.addSql(`drop index "outbox_events_unpublished_index";`);

    this.addSql(
      `alter table "deliveries" add constraint "deliveries_release_id_foreign" foreign key ("release_id") references "releases" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "deliveries" add constraint "deliveries_status_check" check ("status" in ('queued', 'in_inspection', 'delivered', 'live', 'takedown_requested', 'taken_down', 'rejected', 'failed'));`,
    );
    this.addSql(
      `alter table "deliveries" add constraint "deliveries_status_before_takedown_check" check ("status_before_takedown" in ('queued', 'in_inspection', 'delivered', 'live', 'takedown_requested', 'taken_down', 'rejected', 'failed'));`,
    );

    this.addSql(
      `alter table "release_jobs" add constraint "release_jobs_release_id_foreign" foreign key ("release_id") references "releases" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "release_jobs" add constraint "release_jobs_state_check" check ("state" in ('queued', 'running', 'completed', 'failed'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "deliveries" cascade;`);
    this.addSql(`drop table if exists "release_jobs" cascade;`);
    this.addSql(`drop table if exists "sandbox_controls" cascade;`);

    this.addSql(
      `create index "outbox_events_unpublished_index" on "outbox_events" ("id") where cursor IS NULL;`,
    );
  }
}
