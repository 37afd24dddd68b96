export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that moves only when told (tests step the sandbox with it). */
export class ManualClock implements Clock {
  #now: Date;

  constructor(start: Date = new Date('2026-01-05T09:00:00.000Z')) {
    this.#now = new Date(start);
  }

  now(): Date {
    return new Date(this.#now);
  }

  advance(seconds: number): Date {
    this.#now = new Date(this.#now.getTime() + seconds * 1000);
    return this.now();
  }

  set(date: Date): void {
    this.#now = new Date(date);
  }
}

export const DEFAULT_SANDBOX_STEP_SECONDS = 60;

/** Seconds per store step of the sandbox: `SANDBOX_STEP_SECONDS` (>= 0), else the default. */
export function sandboxStepSeconds(env: Record<string, string | undefined> = process.env): number {
  const raw = env.SANDBOX_STEP_SECONDS?.trim();
  if (!raw) return DEFAULT_SANDBOX_STEP_SECONDS;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`SANDBOX_STEP_SECONDS must be a number of seconds >= 0, got ${raw}`);
  }
  return value;
}
