/** A sleep that another part of the process can cut short (e.g. "new work was queued"). */
export interface Wakeup {
  wake(): void;
  sleep(ms: number): Promise<void>;
}

export function createWakeup(): Wakeup {
  let pending: (() => void) | null = null;
  let woken = false;
  return {
    wake: () => {
      woken = true;
      pending?.();
    },
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        if (woken) {
          woken = false;
          resolve();
          return;
        }
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          pending = null;
          woken = false;
          resolve();
        }
        pending = done;
      }),
  };
}
