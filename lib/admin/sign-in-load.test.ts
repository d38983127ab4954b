import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client";
import { setUpTestDatabase } from "../../testing/db";
import { checkouts, randomSignIn, watchPool } from "../../testing/sign-in-load";
import { SIGN_IN_CONNECTIONS } from "./auth";

/**
 * Sign-ins beside checkouts on one server instance's pool. A password check is scrypt: 128 MB and most of a second of
 * CPU. If a sign-in held a pooled connection through it, twenty sign-ins with made-up e-mails would hold all five,
 * and the shop's checkouts would fail with "We could not save your order" (`timeout exceeded when trying to connect`).
 * How fast the checkouts stay meanwhile is the bench's to measure (`npm run bench:sign-in`), not a test's.
 */

const t = setUpTestDatabase();

/** A pool shaped like the shop's own (lib/db/client.ts): five connections, five seconds to get one. */
const POOL_SIZE = 5;
let pool: Pool;
let db: Db;
beforeAll(() => {
  pool = new Pool({ connectionString: t.url, max: POOL_SIZE, connectionTimeoutMillis: 5_000 });
  db = createDb(pool);
});
afterAll(() => pool?.end());

describe("sign-ins beside checkouts on one instance's pool of five", () => {
  it(`20 concurrent sign-ins hold at most ${SIGN_IN_CONNECTIONS} of its connections and never queue for one`, async () => {
    await randomSignIn(db); // the decoy hash for unknown e-mails, made once per process
    const watch = watchPool(pool);
    try {
      await Promise.all(Array.from({ length: 20 }, () => randomSignIn(db)));
    } finally {
      watch.stop();
    }
    expect(watch.seen.maxInUse).toBeLessThanOrEqual(SIGN_IN_CONNECTIONS);
    expect(watch.seen.maxWaiting).toBe(0);
  }, 120_000);

  it("checkouts by four shoppers at once complete while 20 sign-ins are being checked, never waiting for a connection", async () => {
    const watch = watchPool(pool);
    let answered = 0;
    const signIns = Array.from({ length: 20 }, () => randomSignIn(db).finally(() => answered++));
    try {
      // The first sign-ins are hashing by now.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await checkouts(db, 40, POOL_SIZE - SIGN_IN_CONNECTIONS);
      // Done while sign-ins were still being checked, not after them, and the shoppers' connections and the
      // sign-ins' fit in the pool together.
      expect(answered).toBeLessThan(20);
      expect(watch.seen.maxWaiting).toBe(0);
    } finally {
      await Promise.allSettled(signIns);
      watch.stop();
    }
  }, 120_000);
});
