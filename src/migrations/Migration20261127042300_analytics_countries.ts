import { Migration } from '@mikro-orm/migrations';

export class Migration20261127042300_analytics_countries extends Migration {
  override name = 'Migration20261127042300_analytics_countries';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "stream_account_country_days" ("account_id" uuid not null, "day" date not null, "country" varchar(2) not null, "streams" bigint not null, primary key ("account_id", "day", "country"));`,
    );

    this.addSql(
      `create table "stream_account_country_months" ("account_id" uuid not null, "month" date not null, "country" varchar(2) not null, "streams" bigint not null, primary key ("account_id", "month", "country"));`,
    );

    this.addSql(
      `create table "stream_country_days" ("release_id" uuid not null, "day" date not null, "store_id" int not null, "country" varchar(2) not null, "account_id" uuid not null, "streams" bigint not null, primary key ("release_id", "day", "store_id", "country"));`,
    );
    this.addSql(`create index "stream_country_days_day_index" on "stream_country_days" ("day");`);

    this.addSql(
      `create table "stream_release_country_days" ("release_id" uuid not null, "day" date not null, "country" varchar(2) not null, "streams" bigint not null, primary key ("release_id", "day", "country"));`,
    );

    this.addSql(
      `create table "stream_release_country_months" ("release_id" uuid not null, "month" date not null, "country" varchar(2) not null, "streams" bigint not null, primary key ("release_id", "month", "country"));`,
    );

    this.addSql(`alter table "stream_ingestions" add "version" smallint not null default 1;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "stream_account_country_days" cascade;`);
    this.addSql(`drop table if exists "stream_account_country_months" cascade;`);
    this.addSql(`drop table if exists "stream_country_days" cascade;`);
    this.addSql(`drop table if exists "stream_release_country_days" cascade;`);
    this.addSql(`drop table if exists "stream_release_country_months" cascade;`);

    this.addSql(`alter table "stream_ingestions" drop column "version";`);
  }
}
