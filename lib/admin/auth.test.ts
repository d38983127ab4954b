import { describe, expect, it } from "vitest";
import { Gate } from "./auth";

describe("the gate in front of the password check", () => {
  it("lets `size` in, queues `queue` more in order, turns the rest away at once, and hands each turn on", async () => {
    const gate = new Gate(1, 2);
    const first = await gate.enter();
    const order: string[] = [];
    const second = gate.enter().then((release) => (order.push("second"), release));
    const third = gate.enter().then((release) => (order.push("third"), release));
    expect(await gate.enter()).toBeNull();
    expect(first).toBeTypeOf("function");
    first!();
    first!(); // a second call gives no second turn away
    const secondRelease = await second;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(order).toEqual(["second"]);
    secondRelease!();
    (await third)!();
    expect(order).toEqual(["second", "third"]);
    // All turns are back: one may enter at once again, and two may wait.
    const again = await gate.enter();
    expect(again).toBeTypeOf("function");
    again!();
  });
});
