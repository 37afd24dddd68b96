/** A sleep that another part of the process can cut short (e.g. "new work was queued"). */
export interface Wakeup {
  /** Wakes every sleeper; with none asleep, the next sleep returns at once. */
  wake(): void;
  sleep(ms: number): Promise<void>;
}

export function createWakeup(): Wakeup {
  const sleepers = new Set<() => void>();
  let woken = false;
  return {
    wake: () => {
      if (sleepers.size === 0) woken = true;
      for (const done of [...sleepers]) done();
    },
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        if (woken) {
          woken = false;
          resolve();
          return;
        }
        const done = () => {
          clearTimeout(timer);
          sleepers.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        sleepers.add(done);
      }),
  };
}
