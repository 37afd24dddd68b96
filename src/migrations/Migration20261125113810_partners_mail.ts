import { Migration } from '@mikro-orm/migrations';

export class Migration20261125113810_partners_mail extends Migration {
  override name = 'Migration20261125113810_partners_mail';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "email_challenges" ("id" uuid not null, "email" varchar(320) not null, "code_hash" varchar(64) not null, "client_name" varchar(200) not null, "scopes" text[] not null, "attempts" int not null default 0, "expires_at" timestamptz not null, "spent_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "email_challenges_email_index" on "email_challenges" ("email");`);

    this.addSql(
      `create table "mail_outbox" ("id" uuid not null, "from" varchar(320) not null, "to" varchar(320) not null, "subject" varchar(300) not null, "text" text not null, "html" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "mail_outbox_to_index" on "mail_outbox" ("to");`);
    this.addSql(`create index "mail_outbox_created_at_index" on "mail_outbox" ("created_at");`);

    this.addSql(
      `create table "partners" ("id" uuid not null, "name" varchar(200) not null, "client_id" varchar(100) not null, "provenance" varchar(100) not null, "redirect_uris" text[] not null, "disabled_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "partners" add constraint "partners_client_id_unique" unique ("client_id");`);

    this.addSql(`alter table "access_tokens" drop constraint "access_tokens_kind_check";`);
    this.addSql(`alter table "access_tokens" add "provenance" varchar(100) null;`);
    this.addSql(
      `alter table "access_tokens" add constraint "access_tokens_kind_check" check ("kind" in ('pat', 'verified_email', 'oauth', 'agent_login'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "email_challenges" cascade;`);
    this.addSql(`drop table if exists "mail_outbox" cascade;`);
    this.addSql(`drop table if exists "partners" cascade;`);

    this.addSql(`alter table "access_tokens" drop constraint "access_tokens_kind_check";`);
    this.addSql(`alter table "access_tokens" drop column "provenance";`);
    this.addSql(
      `alter table "access_tokens" add constraint "access_tokens_kind_check" check ("kind" in ('pat', 'verified_email', 'oauth'));`,
    );
  }
}
