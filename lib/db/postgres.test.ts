import { eq } from "drizzle-orm";
import { Pool, type PoolClient } from "pg";
import { describe, expect, it } from "vitest";
import { settle } from "../orders/settle";
import { createEmptyDatabase, setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { applyMigrations, pendingMigrations } from "./migrate";
import { orderEvents, orders } from "./schema";

/**
 * The development and test database behaves as PostgreSQL does in production: each connection is a session of its
 * own, and locks are what make the shop's guarantees hold across instances. (Our earlier embedded database shared one
 * session between all connections, and every one of these failed on it.)
 */
const t = setUpTestDatabase();

/** Two connections of one pool, as two requests of one server instance hold them; released afterwards. */
async function twoSessions(run: (a: PoolClient, b: PoolClient) => Promise<void>): Promise<void> {
  const [a, b] = await Promise.all([t.pool.connect(), t.pool.connect()]);
  try {
    await run(a, b);
  } finally {
    a.release(true);
    b.release(true);
  }
}

describe("each connection is a session of its own", () => {
  it("a SET on one connection is not seen on another", () =>
    twoSessions(async (a, b) => {
      await a.query("set statement_timeout = 1234");
      expect((await a.query("show statement_timeout")).rows[0]).toEqual({ statement_timeout: "1234ms" });
      expect((await b.query("show statement_timeout")).rows[0]).toEqual({ statement_timeout: "0" });
      const pids = await Promise.all(
        [a, b].map(async (c) => (await c.query("select pg_backend_pid() as pid")).rows[0].pid),
      );
      expect(pids[0]).not.toBe(pids[1]);
    }));

  it("a session advisory lock held by one connection is refused to another", () =>
    twoSessions(async (a, b) => {
      expect((await a.query("select pg_try_advisory_lock(42) as ok")).rows[0].ok).toBe(true);
      expect((await b.query("select pg_try_advisory_lock(42) as ok")).rows[0].ok).toBe(false);
      await a.query("select pg_advisory_unlock(42)");
      expect((await b.query("select pg_try_advisory_lock(42) as ok")).rows[0].ok).toBe(true);
      await b.query("select pg_advisory_unlock(42)");
    }));

  it("a temporary table is visible only to the connection that made it", () =>
    twoSessions(async (a, b) => {
      await a.query("create temporary table scratch (n int)");
      await expect(b.query("select * from scratch")).rejects.toMatchObject({ code: "42P01" });
    }));

  it("an idle transaction left open on one connection does not block the others", () =>
    twoSessions(async (a, b) => {
      await a.query("begin");
      const { id } = await storeOrder(t.db);
      await a.query("select * from orders where id = $1 for update", [id]);
      // A developer paused at a breakpoint inside a transaction: the rest of the shop carries on.
      expect((await b.query("select 1 as one")).rows[0].one).toBe(1);
      expect((await b.query("select count(*)::int as n from orders where id = $1", [id])).rows[0].n).toBe(1);
      await a.query("rollback");
    }));
});

describe("locks serialise what must happen once", () => {
  it("two settlements racing on one order wait for the row lock in turn; neither fails, one moves it", async () => {
    const { id } = await storeOrder(t.db);
    const holder = await t.pool.connect();
    try {
      await holder.query("begin");
      await holder.query("select id from orders where id = $1 for update", [id]);
      const racing = Promise.all([
        settle(t.db, id, { kind: "customer_returned", type: "success" }),
        settle(t.db, id, { kind: "customer_returned", type: "cancel" }),
      ]);
      // Both are now waiting on the row lock: PostgreSQL reports them as waiting, not failed.
      await expect.poll(() => waitingOnLocks(), { timeout: 10_000 }).toBe(2);
      await holder.query("commit");
      const moves = await racing;
      expect(moves.map((move) => move?.changed).sort()).toEqual([false, true]);
    } finally {
      holder.release();
    }
    const events = await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(orderEvents.id);
    expect(events).toHaveLength(2);
    expect((await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.status).toMatch(
      /^(awaiting_confirmation|cancelled)$/,
    );
  });

  it("two deploys migrating a new database at the same time apply each migration once", async () => {
    const { url, drop } = await createEmptyDatabase();
    const deploys = [new Pool({ connectionString: url, max: 1 }), new Pool({ connectionString: url, max: 1 })];
    try {
      const applied = await Promise.all(deploys.map((pool) => applyMigrations(pool)));
      expect(applied.flat().sort()).toEqual((await pendingMigrationsOfEmpty()).sort());
      expect(applied.some((tags) => tags.length === 0)).toBe(true);
      expect(await pendingMigrations(deploys[0]!)).toEqual([]);
    } finally {
      await Promise.all(deploys.map((pool) => pool.end()));
      await drop();
    }
  });
});

/** Sessions of this database that wait for a lock. */
async function waitingOnLocks(): Promise<number> {
  const { rows } = await t.pool.query<{ n: number }>(
    "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
  );
  return rows[0]!.n;
}

/** Every migration of this checkout (what an empty database lacks). */
async function pendingMigrationsOfEmpty(): Promise<string[]> {
  const { default: journal } = await import("../../drizzle/meta/_journal.json");
  return journal.entries.map((entry) => entry.tag);
}
