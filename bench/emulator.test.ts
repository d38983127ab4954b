import { describe, expect, it } from "vitest";
import { runBench } from "./emulator";

describe("runBench", () => {
  it("runs token+create pairs and keeps the store bounded while the clock moves", async () => {
    const result = await runBench({ pairs: 3000, checkpoints: [1000, 2000], advanceEvery: 500, advanceSeconds: 600 });
    expect(result.pairs).toBe(3000);
    expect(result.pairsPerSecond).toBeGreaterThan(0);
    expect(result.clockAdvancedSeconds).toBe(3600);
    expect(result.checkpoints.map((c) => c.pairs)).toEqual([1000, 2000, 3000]);
    for (const checkpoint of result.checkpoints) {
      // Payments live 1200 s after their token was issued: at most the last two or three advances' worth.
      expect(checkpoint.payments).toBeLessThanOrEqual(1000);
      expect(checkpoint.tokens).toBeLessThanOrEqual(500);
    }
    // 3,000 pairs take 2–4 s alone, and over 20 s while `npm run check` typechecks and lints beside it: what this
    // asserts is the store's bound, not a speed (that is `npm run bench`'s).
  }, 60_000);
});
