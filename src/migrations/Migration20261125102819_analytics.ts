import { Migration } from '@mikro-orm/migrations';

export class Migration20261125102819_analytics extends Migration {
  override name = 'Migration20261125102819_analytics';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "stream_days" ("release_id" uuid not null, "day" date not null, "store_id" int not null, "account_id" uuid not null, "streams" bigint not null, primary key ("release_id", "day", "store_id"));`,
    );
    this.addSql(`create index "stream_days_day_index" on "stream_days" ("day");`);

    this.addSql(
      `create table "stream_ingestions" ("day" date not null, "rows" int not null, "ingested_at" timestamptz not null, primary key ("day"));`,
    );

    this.addSql(
      `create table "stream_release_days" ("account_id" uuid not null, "day" date not null, "release_id" uuid not null, "streams" bigint not null, primary key ("account_id", "day", "release_id"));`,
    );

    this.addSql(
      `create table "stream_release_months" ("account_id" uuid not null, "month" date not null, "release_id" uuid not null, "streams" bigint not null, primary key ("account_id", "month", "release_id"));`,
    );

    this.addSql(
      `create table "stream_store_days" ("account_id" uuid not null, "day" date not null, "store_id" int not null, "streams" bigint not null, primary key ("account_id", "day", "store_id"));`,
    );

    this.addSql(
      `create table "stream_track_days" ("release_id" uuid not null, "day" date not null, "store_id" int not null, "track_id" uuid not null, "streams" bigint not null, primary key ("release_id", "day", "store_id", "track_id"));`,
    );

    this.addSql(
      `create table "stream_account_days" ("account_id" uuid not null, "day" date not null, "streams" bigint not null, primary key ("account_id", "day"));`,
    );
    this.addSql(
      `create table "stream_store_months" ("account_id" uuid not null, "month" date not null, "store_id" int not null, "streams" bigint not null, primary key ("account_id", "month", "store_id"));`,
    );
    this.addSql(`alter table "deliveries" add "live_at" timestamptz null;`);
    // Stores live before this column existed start their streams at their last change.
    this.addSql(
      `update "deliveries" set "live_at" = "updated_at" where "status" in ('live', 'takedown_requested');`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "stream_days" cascade;`);
    this.addSql(`drop table if exists "stream_ingestions" cascade;`);
    this.addSql(`drop table if exists "stream_release_days" cascade;`);
    this.addSql(`drop table if exists "stream_release_months" cascade;`);
    this.addSql(`drop table if exists "stream_store_days" cascade;`);
    this.addSql(`drop table if exists "stream_track_days" cascade;`);

    this.addSql(`drop table if exists "stream_account_days" cascade;`);
    this.addSql(`drop table if exists "stream_store_months" cascade;`);
    this.addSql(`alter table "deliveries" drop column "live_at";`);
  }
}
