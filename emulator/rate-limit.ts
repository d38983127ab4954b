/**
 * Per-client-IP rate limit of the API routes: a fixed one-minute window on the emulator clock,
 * like the real platform's 60 requests a minute. Over the limit the API answers 429 with `Retry-After`.
 */

const WINDOW_MS = 60_000;
/** Hard cap on tracked clients, so a flood of distinct addresses cannot grow memory without bound. */
const MAX_CLIENTS = 10_000;

type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one request of `key` at `now` against `limit` requests a minute (0 = unlimited). */
  hit(key: string, now: number, limit: number): RateLimitDecision;
  /** Forgets windows that have ended. */
  purge(now: number): void;
  clear(): void;
  /** Number of tracked clients. */
  size(): number;
}

export function createRateLimiter(): RateLimiter {
  // Insertion order is window start order (a new window is re-inserted), so the oldest windows come first.
  const windows = new Map<string, { start: number; count: number }>();

  const purge = (now: number) => {
    for (const [key, window] of windows) {
      if (now - window.start < WINDOW_MS) break;
      windows.delete(key);
    }
  };

  return {
    hit(key, now, limit) {
      if (limit <= 0) return { allowed: true };
      let window = windows.get(key);
      if (!window || now - window.start >= WINDOW_MS) {
        if (!window && windows.size >= MAX_CLIENTS) {
          purge(now);
          // Still full: forget the oldest client (Map iterates in insertion order).
          const oldest = windows.keys().next();
          if (windows.size >= MAX_CLIENTS && !oldest.done) windows.delete(oldest.value);
        }
        window = { start: now, count: 0 };
        windows.delete(key);
        windows.set(key, window);
      }
      window.count++;
      if (window.count <= limit) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000)) };
    },
    purge,
    clear: () => windows.clear(),
    size: () => windows.size,
  };
}
