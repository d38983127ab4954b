import { describe, expect, it } from "vitest";
import { coalesce, forget } from "./coalesce";

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

describe("coalesce", () => {
  it("runs the work once for calls that arrive while it runs", async () => {
    const gate = deferred<string>();
    let runs = 0;
    const work = () => (runs++, gate.promise);
    const a = coalesce("k1", work);
    const b = coalesce("k1", work);
    gate.resolve("order-1");
    expect(await Promise.all([a, b])).toEqual(["order-1", "order-1"]);
    expect(runs).toBe(1);
  });

  it("hands out a success for reuseForMs after it settled, then runs again", async () => {
    let clock = 1_000;
    let runs = 0;
    const work = async () => `order-${++runs}`;
    const options = { reuseForMs: 10_000, now: () => clock };
    expect(await coalesce("k2", work, options)).toBe("order-1");
    clock += 9_000;
    expect(await coalesce("k2", work, options)).toBe("order-1");
    clock += 2_000;
    expect(await coalesce("k2", work, options)).toBe("order-2");
  });

  it("never reuses a failure", async () => {
    let runs = 0;
    const failing = async () => {
      runs++;
      throw new Error("service down");
    };
    await expect(coalesce("k3", failing, { reuseForMs: 10_000 })).rejects.toThrow("service down");
    await expect(coalesce("k3", failing, { reuseForMs: 10_000 })).rejects.toThrow("service down");
    expect(runs).toBe(2);
  });

  it("keeps keys apart, and forget() makes the next call run", async () => {
    let runs = 0;
    const work = async () => ++runs;
    expect(await coalesce("k4", work, { reuseForMs: 60_000 })).toBe(1);
    expect(await coalesce("k5", work, { reuseForMs: 60_000 })).toBe(2);
    forget("k4");
    expect(await coalesce("k4", work, { reuseForMs: 60_000 })).toBe(3);
  });
});
