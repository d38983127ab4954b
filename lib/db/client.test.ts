import { inspect } from "node:util";
import { eq, sql } from "drizzle-orm";
import { Pool } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { createDb } from "./client";
import { DbQueryError, describeDbFailure } from "./errors";
import { orders } from "./schema";

/**
 * A failed query, as whoever meets it would print it: Next.js prints an error nobody caught with `console.error`,
 * which shows the stack, every field and the whole chain of causes. None of it may carry a query's parameters (a
 * payment token, a session id, an admin's e-mail, a search term) nor a value PostgreSQL quotes back.
 */

const t = setUpTestDatabase();
const down = new Pool({ connectionString: "postgresql://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 500 });
afterAll(() => down.end());

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable("the query succeeded"),
    (error: unknown) => error,
  );

/** Everything a log line could show of an error: message, stack, `String()`, and what console.error prints. */
function printed(error: unknown): string {
  const { message, stack } = error as Error;
  return [message, stack, String(error), inspect(error, { depth: Infinity, showHidden: false })].join("\n");
}

describe("a failed query's error", () => {
  it("carries no parameter when PostgreSQL refuses a value, and none of the value it quotes back", async () => {
    const error = await failureOf(t.db.execute(sql`select ${"pt-secret-4f2a"}::integer`));
    expect(error).toBeInstanceOf(DbQueryError);
    expect(printed(error)).not.toContain("pt-secret-4f2a");
    expect(describeDbFailure(error)).toEqual({ code: "22P02", operation: "select" });
  });

  it("names a refused write by its code and constraint, without the key PostgreSQL's detail quotes", async () => {
    const { paymentToken } = await storeOrder(t.db);
    const error = await failureOf(storeOrder(t.db, { paymentToken, email: "customer-7@example.ly" }));
    expect(printed(error)).not.toContain(paymentToken);
    expect(printed(error)).not.toContain("customer-7@example.ly");
    expect(describeDbFailure(error)).toEqual({ code: "23505", operation: "insert orders" });
    // What code that tells a unique violation apart reads, as with Drizzle's own error.
    expect(error).toMatchObject({ code: "23505", cause: { code: "23505", constraint: "orders_paymentToken_unique" } });
  });

  it("carries no parameter when the database cannot be reached", async () => {
    const error = await failureOf(
      createDb(down).select().from(orders).where(eq(orders.sessionId, "session-3f1e0c2a9b7d")),
    );
    expect(printed(error)).not.toContain("session-3f1e0c2a9b7d");
    expect(describeDbFailure(error)).toEqual({ code: "ECONNREFUSED", operation: "select orders" });
  });

  it("carries no parameter inside a transaction, nor from a relational query", async () => {
    const inTransaction = await failureOf(
      t.db.transaction((tx) => tx.select().from(orders).where(eq(orders.email, "admin-9@example.ly\u0000"))),
    );
    expect(printed(inTransaction)).not.toContain("admin-9@example.ly");
    expect(describeDbFailure(inTransaction)).toEqual({ code: "22021", operation: "select orders" });

    const relational = await failureOf(
      createDb(down).query.orders.findFirst({ where: eq(orders.paymentToken, "pt-relational-8c1d") }),
    );
    expect(printed(relational)).not.toContain("pt-relational-8c1d");
    expect(describeDbFailure(relational)).toMatchObject({ code: "ECONNREFUSED" });
  });
});
