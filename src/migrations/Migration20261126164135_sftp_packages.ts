import { Migration } from '@mikro-orm/migrations';

export class Migration20261126164135_sftp_packages extends Migration {
  override name = 'Migration20261126164135_sftp_packages';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "sftp_packages" ("id" varchar(60) not null, "delivery_id" uuid not null, "kind" text not null, "batch_id" varchar(17) not null, "directory" text not null, "message_file" varchar(100) not null, "message" text not null, "batch_complete" boolean not null, "files" jsonb not null, "completed" jsonb not null, "attempts" int not null default 0, "resends" int not null default 0, "last_error" text null, "next_work_at" timestamptz not null, "uploaded_at" timestamptz null, "ack_status" varchar(100) null, "ack_text" text null, "ack_resend" boolean not null default false, "closed_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "sftp_packages_delivery_id_index" on "sftp_packages" ("delivery_id");`);

    this.addSql(
      `alter table "sftp_packages" add constraint "sftp_packages_kind_check" check ("kind" in ('release', 'takedown'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sftp_packages" cascade;`);
  }
}
