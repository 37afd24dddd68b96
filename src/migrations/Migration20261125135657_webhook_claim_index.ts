import { Migration } from '@mikro-orm/migrations';

export class Migration20261125135657_webhook_claim_index extends Migration {
  override name = 'Migration20261125135657_webhook_claim_index';

  override up(): void | Promise<void> {
    this.addSql(`drop index "webhook_deliveries_status_next_attempt_at_index";`);
    this.addSql(
      `create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_attempt_at", "event_cursor") where status = 'pending';`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "webhook_deliveries_due_idx";`);
    this.addSql(
      `create index "webhook_deliveries_status_next_attempt_at_index" on "webhook_deliveries" ("status", "next_attempt_at");`,
    );
  }
}
