import { describe, expect, it } from 'vitest';
import { HealthMonitor } from '../../src/platform/health.ts';

describe('the health monitor behind /v1/status', () => {
  it('answers the last ping, pings once for concurrent first readers, and sees the database go and come back', async () => {
    let pings = 0;
    let up = true;
    const monitor = new HealthMonitor(async () => {
      pings++;
      if (!up) throw new Error('connection refused');
    });
    try {
      expect(await Promise.all([monitor.database(), monitor.database()])).toEqual(['ok', 'ok']);
      expect(pings).toBe(1);
      expect(await monitor.database()).toBe('ok');
      expect(pings).toBe(1);
      up = false;
      await monitor.check();
      expect(await monitor.database()).toBe('unreachable');
      up = true;
      await monitor.check();
      expect(await monitor.database()).toBe('ok');
    } finally {
      monitor.stop();
    }
  });

  it('a ping that hangs counts as unreachable', async () => {
    const monitor = new HealthMonitor(() => new Promise(() => {}));
    try {
      expect(await monitor.database()).toBe('unreachable');
    } finally {
      monitor.stop();
    }
  }, 10_000);
});
