import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisPubSub, type Invalidation, type PubSub } from '../../src/platform/events/pubsub.ts';
import { createRateLimits, type RateLimits } from '../../src/platform/rate-limit/index.ts';
import { redisNamespace } from '../../src/platform/redis-namespace.ts';
import { until } from '../support/wait.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
const opened: (PubSub | RateLimits)[] = [];
afterAll(async () => {
  for (const one of opened) await one.close();
});

function pubsub(namespace: string) {
  const created = createRedisPubSub(REDIS_URL, namespace);
  opened.push(created);
  const heard: Invalidation[] = [];
  created.onInvalidation((invalidation) => heard.push(invalidation));
  return { created, heard };
}

describe('one Redis shared by several deployments', () => {
  it('names the namespace after the database unless REDIS_NAMESPACE is set', () => {
    expect(redisNamespace(undefined, 'postgres://u@db:5432/tributary_prod')).toBe('tributary:tributary_prod');
    expect(redisNamespace('eu-1', 'postgres://u@db:5432/tributary_prod')).toBe('eu-1');
  });

  it('a deployment hears its own invalidations and not another namespace’s', async () => {
    const run = randomUUID();
    const first = pubsub(`test:${run}:a`);
    const sameDeployment = pubsub(`test:${run}:a`);
    const other = pubsub(`test:${run}:b`);
    // Subscriptions are ready once a message to oneself comes back.
    await first.created.invalidate({ cache: 'ping', key: 'a' });
    await other.created.invalidate({ cache: 'ping', key: 'b' });
    await until(() => sameDeployment.heard.some((i) => i.key === 'a'), 5_000);

    await first.created.invalidate({ cache: 'tokens', key: run });
    await until(() => sameDeployment.heard.some((i) => i.key === run), 5_000);
    // Given time to arrive, the other namespace's listener never hears it.
    await other.created.invalidate({ cache: 'ping', key: 'after' });
    await until(() => other.heard.some((i) => i.key === 'after'), 5_000);

    expect(sameDeployment.heard.map((i) => i.key)).toContain(run);
    expect(other.heard.map((i) => i.key)).not.toContain(run);
    expect(other.heard.map((i) => i.key)).not.toContain('a');
  });

  it('rate-limit counters of two namespaces are separate', async () => {
    const run = randomUUID();
    const limitsFor = (namespace: string) => {
      const limits = createRateLimits({
        databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
        redis: { url: REDIS_URL, namespace },
      });
      opened.push(limits);
      return limits;
    };
    const rule = { name: 'namespace-test', points: 1, windowSeconds: 60 };
    const a = limitsFor(`test:${run}:a`);
    const b = limitsFor(`test:${run}:b`);
    await a.consume(rule, 'same-subject', 'limited');
    await expect(a.consume(rule, 'same-subject', 'limited')).rejects.toThrow('limited');
    await expect(b.consume(rule, 'same-subject', 'limited')).resolves.toEqual({ remaining: 0 });
  });
});
