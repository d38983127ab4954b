import "server-only";

interface Entry {
  promise: Promise<unknown>;
  /** ms since epoch after which a settled result is no longer handed out; Infinity while running. */
  until: number;
}

const entries = new Map<string, Entry>();
/** Entries kept at most; the oldest go first. A checkout's entry is small (an order) and short-lived. */
const MAX_ENTRIES = 10_000;

/**
 * Runs `work` once per `key` in this server process. Calls that arrive while it runs, or up to `reuseForMs` after it
 * succeeded, get its result instead of running it again. Used so a double-clicked checkout or two tabs make one
 * payment: the second request may have left the browser before the first answer came back, so it carries the old
 * session cookie and cannot see the first order there. A failure is never reused: the next call tries again.
 * Across processes (several serverless instances) the session's pending order does the same job for anything but
 * truly simultaneous posts.
 */
export function coalesce<T>(key: string, work: () => Promise<T>, { reuseForMs = 0, now = Date.now } = {}): Promise<T> {
  const existing = entries.get(key);
  if (existing && now() <= existing.until) return existing.promise as Promise<T>;

  const entry: Entry = { promise: Promise.resolve(), until: Infinity };
  entry.promise = work().then(
    (value) => {
      entry.until = now() + reuseForMs;
      return value;
    },
    (error: unknown) => {
      if (entries.get(key) === entry) entries.delete(key);
      throw error;
    },
  );
  entries.set(key, entry);
  prune(now());
  return entry.promise as Promise<T>;
}

/** Drops `key`'s entry, so the next {@link coalesce} call runs its work again. */
export function forget(key: string): void {
  entries.delete(key);
}

/** Drops settled entries past their time, then the oldest if there are still too many. */
function prune(at: number): void {
  if (entries.size <= MAX_ENTRIES) return;
  for (const [key, entry] of entries) if (at > entry.until) entries.delete(key);
  for (const key of entries.keys()) {
    if (entries.size <= MAX_ENTRIES) break;
    entries.delete(key);
  }
}
