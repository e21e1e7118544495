/** The only source of "now" outside tests; domain code receives time inside commands. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock tests can move by hand. */
export class ManualClock extends Clock {
  constructor(private current: Date = new Date('2026-01-01T00:00:00Z')) {
    super();
  }
  now(): Date {
    return new Date(this.current.getTime());
  }
  set(date: Date): void {
    this.current = new Date(date.getTime());
  }
  advanceMs(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
