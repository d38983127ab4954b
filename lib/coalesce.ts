import "server-only";

const inFlight = new Map<string, Promise<unknown>>();

/**
 * Runs `work` once per `key` at a time in this server process: calls that arrive while it runs share its result
 * (or its error). Used so a double-clicked checkout creates one payment, not two. Across processes (several
 * serverless instances) the session's pending order does the same job for anything but truly simultaneous posts.
 */
export function coalesce<T>(key: string, work: () => Promise<T>): Promise<T> {
  const running = inFlight.get(key);
  if (running) return running as Promise<T>;
  const promise = work().finally(() => inFlight.delete(key));
  inFlight.set(key, promise);
  return promise;
}
