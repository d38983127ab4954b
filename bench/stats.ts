// Small statistics helpers for the bench.

export interface Summary {
  n: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** The `p`th percentile (0–100) of `values` by the nearest-rank method; `NaN` for no values. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** n, min, p50, p95, p99, max and mean of `values` (milliseconds in, milliseconds out). */
export function summary(values: readonly number[]): Summary {
  const mean = values.reduce((total, value) => total + value, 0) / values.length;
  return {
    n: values.length,
    min: Math.min(...values),
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: Math.max(...values),
    mean,
  };
}

/** The median of `values` (nearest rank: always one of the values, as Lighthouse scores are). */
export const median = (values: readonly number[]) => percentile(values, 50);

/** Runs `task(item, index)` over `items` with at most `limit` in flight; results in input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
