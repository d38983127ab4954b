import { eq, sql } from "drizzle-orm";
import type { Pool } from "pg";
import { signIn } from "../lib/admin/auth";
import type { Db } from "../lib/db/client";
import { orderEvents, orders } from "../lib/db/schema";
import { newOrderId } from "../lib/ids";

/**
 * Sign-ins beside checkouts on one server instance's pool, for lib/admin/sign-in-load.test.ts (what must hold) and
 * bench/sign-in-load.ts (how fast the checkouts stay): a checkout's database work, sign-ins with made-up e-mails, and a
 * watch on the pool's connections. A password check is scrypt: 128 MB and most of a second of CPU.
 */

/** Connections checked out of the pool, counted from its own events, and the most requests ever queued for one. */
export function watchPool(pool: Pool) {
  const seen = { inUse: 0, maxInUse: 0, maxWaiting: 0 };
  const acquire = () => {
    seen.inUse++;
    seen.maxInUse = Math.max(seen.maxInUse, seen.inUse);
  };
  const release = () => seen.inUse--;
  pool.on("acquire", acquire);
  pool.on("release", release);
  const sampler = setInterval(() => (seen.maxWaiting = Math.max(seen.maxWaiting, pool.waitingCount)), 2);
  return {
    seen,
    stop() {
      clearInterval(sampler);
      pool.off("acquire", acquire);
      pool.off("release", release);
    },
  };
}

/**
 * A checkout's database work, in short, as lib/checkout/claim.ts and place-order.ts do it: look for the
 * session's open checkout, claim it (order and its event in one statement), record its payment.
 * @returns how long it took, in milliseconds.
 */
async function checkout(db: Db): Promise<number> {
  const started = performance.now();
  const id = newOrderId();
  const sessionId = `load-${id}`;
  await db.query.orders.findFirst({ where: eq(orders.sessionId, sessionId) });
  const claim = db
    .insert(orders)
    .values({
      id,
      sessionId,
      fingerprint: id,
      status: "started",
      amountMinor: 3750,
      currency: "LYD",
      locale: "en",
      claimExpiresAt: new Date(Date.now() + 60_000),
    })
    .onConflictDoNothing()
    .returning({ id: orders.id });
  await db.execute(
    sql`with claimed as (${claim.getSQL()}) insert into ${orderEvents} (order_id, type, data) select id, 'created', '{}'::jsonb from claimed`,
  );
  const pending = db
    .update(orders)
    .set({
      status: "pending",
      paymentToken: `pt-${id}`,
      paymentUrl: "https://pay.example.ly/x",
      paymentExpiresAt: new Date(Date.now() + 600_000),
      updatedAt: new Date(),
    })
    .where(eq(orders.id, id))
    .returning({ id: orders.id });
  await db.execute(
    sql`with changed as (${pending.getSQL()}) insert into ${orderEvents} (order_id, type, data) select id, 'payment_created', '{}'::jsonb from changed`,
  );
  return performance.now() - started;
}

/** `count` checkouts from `shoppers` shoppers at once; their durations, in milliseconds. */
export async function checkouts(db: Db, count: number, shoppers = 2): Promise<number[]> {
  const durations: number[] = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: shoppers }, async () => {
      while (started++ < count) durations.push(await checkout(db));
    }),
  );
  return durations;
}

let attempt = 0;
/** A sign-in with a made-up e-mail from a made-up address: each one a full password check, none ever locked. */
export const randomSignIn = (db: Db) => {
  attempt++;
  return signIn(db, {
    email: `guess-${attempt}-${crypto.randomUUID()}@attacker.example`,
    password: "password123",
    ip: `198.18.${(attempt >> 8) & 255}.${attempt & 255}`,
  });
};

/**
 * `attackers` signing in over and over (a moment's pause after a "busy") until `stop()`.
 * @returns `stop()`, which answers how many passwords were checked meanwhile.
 */
export function attack(db: Db, attackers = 20) {
  let running = true;
  let checked = 0;
  const done = Promise.all(
    Array.from({ length: attackers }, async () => {
      while (running) {
        const result = await randomSignIn(db);
        if (!result.ok && result.reason === "busy") await new Promise((resolve) => setTimeout(resolve, 50));
        else checked++;
      }
    }),
  );
  return {
    async stop() {
      running = false;
      await done;
      return checked;
    },
  };
}
