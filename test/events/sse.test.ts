import { describe, expect, it } from 'vitest';
import { appendEvent } from '../../src/platform/events/append-event.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';

describe('release events over server-sent events (GraphQL over SSE)', () => {
  const app = useTestApp();

  it('replays after a cursor and streams live, as text/event-stream', async () => {
    const account = await accountWithToken(app().em());
    await app()
      .em()
      .transactional((em) =>
        appendEvent(em, { accountId: account.accountId, type: 'release.status_changed', payload: { n: 1 } }),
      );
    const controller = new AbortController();
    const response = await fetch(`${app().url}/graphql`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${account.token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ query: 'subscription { releaseEvents(after: "0") { type payload } }' }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + 5000;
    setTimeout(
      () =>
        app()
          .em()
          .transactional((em) =>
            appendEvent(em, {
              accountId: account.accountId,
              type: 'release.status_changed',
              payload: { n: 2 },
            }),
          ),
      100,
    );
    while (!text.includes('"n":2') && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    controller.abort();
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)))
      .filter((d) => d.data)
      .map((d) => JSON.parse(d.data.releaseEvents.payload).n);
    expect(data).toEqual([1, 2]);
  });
});
