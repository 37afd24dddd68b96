import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { appendEvent } from '../../src/platform/events/append-event.ts';
import { createLocalPubSub, type PublishedEvent } from '../../src/platform/events/pubsub.ts';
import { OutboxRelay } from '../../src/platform/events/relay.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { useTestOrm } from '../support/orm.ts';

const orm = useTestOrm('relay_order');

describe('the outbox relay', () => {
  it('gives one batch its cursors in the order the events were written, whatever the order on disk', async () => {
    const accountId = randomUUID();
    const em = orm().em.fork();
    const ids: number[] = [];
    for (const n of [1, 2, 3, 4, 5]) {
      const row = await em
        .fork()
        .transactional((tx) =>
          appendEvent(tx, { accountId, type: 'release.status_changed', payload: { n } }),
        );
      ids.push(row.id);
    }
    // Rows rewritten newest first: the table is read back in the reverse of the order they were
    // written. Pool connections filling different pages, and space freed by vacuum, do the same.
    for (const id of [...ids].reverse())
      await em.execute('update outbox_events set payload = payload where id = ?', [id]);
    // A table not yet analyzed (a fresh database) gets a hash join that scans the table; pinned here
    // so that the test does not depend on what the planner estimates.
    const database = orm().config.get('dbName');
    await em.execute(`alter database "${database}" set enable_nestloop = off`);
    await em.execute(`alter database "${database}" set enable_mergejoin = off`);

    const transport = createLocalPubSub();
    const published: PublishedEvent[] = [];
    transport.subscribe((event) => published.push(event));
    const relay = new OutboxRelay(orm(), transport, createLogger('silent'));
    try {
      await relay.start();
      await vi.waitFor(() => expect(published).toHaveLength(5));
    } finally {
      await relay.stop();
      await em.execute(`alter database "${database}" reset all`);
    }

    expect(published.map((e) => e.payload.n)).toEqual([1, 2, 3, 4, 5]);
    const cursors = await em.execute<{ id: string; cursor: string }[]>(
      'select id, cursor from outbox_events where account_id = ? order by id',
      [accountId],
    );
    const byId = cursors.map((row) => Number(row.cursor));
    expect(byId).toEqual([...byId].sort((a, b) => a - b));
  });
});
