/**
 * The emulator's clock: real time plus an offset that tests and the control API can move forward,
 * so that ten minutes of token life pass in a millisecond.
 */
export interface Clock {
  /** Current emulator time in milliseconds since the epoch. */
  now(): number;
  /** Current emulator time in whole seconds (JWT `iat`/`exp` are in seconds). */
  nowSeconds(): number;
  /** Milliseconds added to real time. */
  offsetMs(): number;
  /** Moves the clock forward by `seconds` (never backwards). */
  advance(seconds: number): void;
  /** Puts the clock back to real time. */
  reset(): void;
}

/** Creates a clock on top of `realNow` (default `Date.now`). */
export function createClock(realNow: () => number = Date.now): Clock {
  let offset = 0;
  const now = () => realNow() + offset;
  return {
    now,
    nowSeconds: () => Math.floor(now() / 1000),
    offsetMs: () => offset,
    advance(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError("The clock only moves forward.");
      offset += Math.round(seconds * 1000);
    },
    reset() {
      offset = 0;
    },
  };
}
