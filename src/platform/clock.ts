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
