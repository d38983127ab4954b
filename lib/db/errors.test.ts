import { eq, sql } from "drizzle-orm";
import { Pool } from "pg";
import { describe, expect, it } from "vitest";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { createDb } from "./client";
import { describeDbFailure } from "./errors";
import { orders } from "./schema";

/** Real failures of a real PostgreSQL, reduced to what the log may carry. */

const t = setUpTestDatabase();
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable("the query succeeded"),
    (error: unknown) => error,
  );

describe("describeDbFailure", () => {
  it("gives PostgreSQL's code and the operation, and nothing of the parameters", async () => {
    const error = await failureOf(t.db.select().from(orders).where(eq(orders.paymentToken, "pt-secret\u0000")));
    expect(String(error)).not.toContain("pt-secret");
    expect(describeDbFailure(error)).toEqual({ code: "22021", operation: "select orders" });
  });

  it("names a refused write by its code and table", async () => {
    const { paymentToken } = await storeOrder(t.db);
    const error = await failureOf(storeOrder(t.db, { paymentToken, email: "customer@example.ly" }));
    expect(describeDbFailure(error)).toEqual({ code: "23505", operation: "insert orders" });
  });

  it("names the driver's own failures, which carry no code", async () => {
    const slow = new Pool({ connectionString: t.url, max: 1, query_timeout: 50 });
    try {
      expect(describeDbFailure(await failureOf(createDb(slow).execute(sql`select pg_sleep(1)`)))).toEqual({
        code: "query_timeout",
        operation: "select",
      });
    } finally {
      await slow.end();
    }
    expect(describeDbFailure(new Error("something else entirely"))).toEqual({ code: "unknown" });
    expect(describeDbFailure("not even an error")).toEqual({ code: "unknown" });
  });
});
