import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { commitAnnouncer } from '../../src/platform/cache/commit-announcer.ts';

describe('commitAnnouncer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('announces a commit after a quiet spell on the next turn, once for the commits of that turn', () => {
    const announce = vi.fn();
    const committed = commitAnnouncer(announce, 20);
    committed();
    committed();
    expect(announce).not.toHaveBeenCalled();
    vi.advanceTimersToNextTimer(); // the next turn (setImmediate)
    expect(announce).toHaveBeenCalledTimes(1);
  });

  it('announces the commits of a window once, when it ends, and every commit within the window', () => {
    const announce = vi.fn();
    const committed = commitAnnouncer(announce, 20);
    committed();
    vi.advanceTimersByTime(1);
    expect(announce).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i++) {
      committed();
      vi.advanceTimersByTime(1);
    }
    // 11 ms after the first announcement: the ten commits since wait for the window's end.
    expect(announce).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(9);
    expect(announce).toHaveBeenCalledTimes(2);
    // Nothing committed in the second window: nothing more is sent, and the next commit goes at once.
    vi.advanceTimersByTime(40);
    expect(announce).toHaveBeenCalledTimes(2);
    committed();
    vi.advanceTimersToNextTimer();
    expect(announce).toHaveBeenCalledTimes(3);
  });

  it('a steady stream of commits is announced once a window, never later than a window after a commit', () => {
    const announce = vi.fn();
    const committed = commitAnnouncer(announce, 20);
    const sent: number[] = [];
    announce.mockImplementation(() => sent.push(Date.now()));
    const start = Date.now();
    for (let ms = 0; ms < 200; ms++) {
      committed(); // one commit a millisecond
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(40);
    expect(sent.length).toBeGreaterThanOrEqual(10);
    expect(sent.length).toBeLessThanOrEqual(11);
    // The last commit (at 199 ms) was announced within a window of it.
    expect(sent.at(-1)! - start).toBeGreaterThanOrEqual(199);
    expect(sent.at(-1)! - start).toBeLessThanOrEqual(199 + 20);
  });
});
