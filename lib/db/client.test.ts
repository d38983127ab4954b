import { inspect } from "node:util";
import { eq, sql } from "drizzle-orm";
import { Pool } from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { createDb, createPool, databaseAnswers } from "./client";
import { DbQueryError, describeDbFailure, isDbUnavailable } from "./errors";
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

describe("an unavailable database", () => {
  it("is told from a statement the database refused: the back office says it is unavailable only for the first", async () => {
    const unreachable = await failureOf(createDb(down).execute(sql`select 1`));
    const unreachableInTransaction = await failureOf(
      createDb(down).transaction(async (tx) => tx.execute(sql`select 1`)),
    );
    const refused = await failureOf(t.db.execute(sql`select ${"x"}::integer`));
    expect([unreachable, unreachableInTransaction, refused].map(isDbUnavailable)).toEqual([true, true, false]);
  });

  it("is told from one that answers, without throwing", async () => {
    expect([await databaseAnswers(createDb(down)), await databaseAnswers(t.db)]).toEqual([false, true]);
  });
});

describe("a database connection the server drops", () => {
  const warnings: unknown[] = [];
  const terminate = async (pid: number) => {
    await t.pool.query("select pg_terminate_backend($1)", [pid]);
  };

  it("is logged as a warning, never an uncaught exception, and the pool opens another", async () => {
    const { logger } = await import("../log");
    const warn = vi.spyOn(logger, "warn").mockImplementation((entry: unknown) => void warnings.push(entry));
    const pool = createPool(t.url);
    try {
      // Checked out, between two statements of a transaction: only the shop's own listener hears the drop.
      const busy = await pool.connect();
      await busy.query("begin");
      const busyPid = (await busy.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
      const busyEnded = new Promise((resolve) => busy.once("end", resolve));
      await terminate(busyPid);
      await busyEnded;
      await expect(busy.query("select 1")).rejects.toThrow();
      busy.release();

      // Idle in the pool.
      const idle = await pool.connect();
      const idlePid = (await idle.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
      const idleEnded = new Promise((resolve) => idle.once("end", resolve));
      idle.release();
      await terminate(idlePid);
      await idleEnded;

      // One or two per drop: PostgreSQL's "terminating connection" (57P01), then the socket's end.
      expect(warnings.length).toBeGreaterThanOrEqual(2);
      expect(warnings).toEqual(warnings.map(() => expect.objectContaining({ event: "db_connection_lost" })));
      expect(warnings).toContainEqual({ event: "db_connection_lost", code: "57P01" });
      const { rows } = await pool.query<{ pid: number }>("select pg_backend_pid() as pid");
      expect([busyPid, idlePid]).not.toContain(rows[0]!.pid);
    } finally {
      warn.mockRestore();
      await pool.end();
    }
  });
});
