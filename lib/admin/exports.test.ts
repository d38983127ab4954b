import { describe, expect, it } from "vitest";
import { claimExportSlot, MAX_CONCURRENT_EXPORTS } from "./exports";

describe("the instance's export slots", () => {
  it("lets as many exports run at once as it allows, refuses one more until one ends, and counts an ended one once", () => {
    const running = Array.from({ length: MAX_CONCURRENT_EXPORTS }, () => claimExportSlot());
    expect(running.every(Boolean)).toBe(true);
    expect(claimExportSlot()).toBeNull();
    running[0]!();
    running[0]!(); // a stream that ends twice (finished, then cancelled) gives its slot back once
    const next = claimExportSlot();
    expect(next).not.toBeNull();
    expect(claimExportSlot()).toBeNull();
    for (const release of [next, ...running.slice(1)]) release!();
  });
});
