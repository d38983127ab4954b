import { describe, expect, it } from "vitest";
import { runBench } from "./emulator";

describe("runBench", () => {
  it("runs token+create pairs and keeps the store bounded while the clock moves", async () => {
    const result = await runBench({ pairs: 600, checkpoints: [200, 400], advanceEvery: 100, advanceSeconds: 600 });
    expect(result.pairs).toBe(600);
    expect(result.pairsPerSecond).toBeGreaterThan(0);
    expect(result.clockAdvancedSeconds).toBe(3600);
    expect(result.checkpoints.map((c) => c.pairs)).toEqual([200, 400, 600]);
    for (const checkpoint of result.checkpoints) {
      // Payments live 1200 s after their token was issued: at most the last two advances' worth (an unbounded store
      // would hold every pair's by the last checkpoint: 600).
      expect(checkpoint.payments).toBeLessThanOrEqual(200);
      expect(checkpoint.tokens).toBeLessThanOrEqual(100);
    }
    // What this asserts is the store's bound, not a speed (that is `npm run bench`'s): six advances of the clock
    // past the payments' lifetime are enough, and 600 pairs take well under a second alone.
  }, 60_000);
});
