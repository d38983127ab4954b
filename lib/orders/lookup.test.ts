import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { orderLookups } from "../db/schema";
import { newOrderId } from "../ids";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import {
  LOOKUP_CODE_TTL_MS,
  LOOKUP_LIMITS,
  MAX_WRONG_CODES,
  parseLookupCode,
  parseOrderNumber,
  requestLookupCode,
  verifyLookupCode,
  type LookupRequestResult,
} from "./lookup";

/** Find my order by phone against a real database: what asking reveals, the budgets, expiry, tries, and one use. */

const t = setUpTestDatabase();
let second: Pool;
beforeAll(() => {
  second = new Pool({ connectionString: t.url, max: 5 });
});
afterAll(() => second?.end());

const minutesLater = (minutes: number, from = new Date()) => new Date(from.getTime() + minutes * 60_000);
/** A Libyan mobile of its own for each call, so that tests do not share a phone's budget. */
let phones = 0;
const newPhone = () => `09123${String(40_000 + phones++).padStart(5, "0")}`;
const lookupOf = (result: LookupRequestResult) => {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result;
};
const rowOf = async (id: number) => (await t.db.select().from(orderLookups).where(eq(orderLookups.id, id)))[0]!;

describe("asking for a code", () => {
  it("texts a code to the order's own phone in the order's language, keeps only its hash, and the code opens the order once", async () => {
    const phone = newPhone();
    const { id } = await storeOrder(t.db, { status: "paid", phone, locale: "ar" });
    const typed = `+218 ${phone.slice(1, 3)}-${phone.slice(3, 6)}-${phone.slice(6)}`;
    const asked = lookupOf(await requestLookupCode(t.db, { orderId: id, phone: typed, clientAddress: "10.40.0.1" }));
    expect(asked.code).toMatchObject({ to: `+218${phone.slice(1)}`, locale: "ar" });
    const code = asked.code!.code;
    expect(code).toMatch(/^\d{6}$/);
    const row = await rowOf(asked.lookupId);
    expect(row).toMatchObject({ orderId: id, phone, clientAddress: "10.40.0.1", wrongCodes: 0, usedAt: null });
    expect(row.codeHash).toBe(createHash("sha256").update(code).digest("hex"));
    expect(row.expiresAt.getTime() - row.requestedAt.getTime()).toBe(LOOKUP_CODE_TTL_MS);

    expect(await verifyLookupCode(t.db, { lookupId: asked.lookupId, code })).toEqual({ ok: true, orderId: id });
    expect(await verifyLookupCode(t.db, { lookupId: asked.lookupId, code })).toEqual({ ok: false, reason: "expired" });
  });

  it("answers a wrong phone and an unknown order as a match, with the same row, and texts nothing", async () => {
    const phone = newPhone();
    const { id } = await storeOrder(t.db, { status: "paid", phone });
    const wrongPhone = lookupOf(
      await requestLookupCode(t.db, { orderId: id, phone: newPhone(), clientAddress: "10.41.0.1" }),
    );
    const unknown = lookupOf(
      await requestLookupCode(t.db, { orderId: newOrderId(), phone, clientAddress: "10.41.0.1" }),
    );
    // An order that never got a payment is no order here either.
    const { id: started } = await storeOrder(t.db, { status: "started", phone });
    const unpaid = lookupOf(await requestLookupCode(t.db, { orderId: started, phone, clientAddress: "10.41.0.1" }));
    for (const answer of [wrongPhone, unknown, unpaid]) {
      expect(answer).toEqual({ ok: true, lookupId: expect.any(Number), code: null });
      const row = await rowOf(answer.lookupId);
      expect(row).toMatchObject({ codeHash: null, wrongCodes: 0, usedAt: null });
      // No code opens it: each try counts as wrong.
      expect(await verifyLookupCode(t.db, { lookupId: answer.lookupId, code: "000000" })).toEqual({
        ok: false,
        reason: "wrong_code",
        triesLeft: MAX_WRONG_CODES - 1,
      });
    }
  });
});

describe("a code", () => {
  it(`works for ${LOOKUP_CODE_TTL_MS / 60_000} minutes`, async () => {
    const phone = newPhone();
    const { id } = await storeOrder(t.db, { status: "paid", phone });
    const asked = new Date();
    const first = lookupOf(
      await requestLookupCode(t.db, { orderId: id, phone, clientAddress: "10.42.0.1" }, { now: asked }),
    );
    const late = minutesLater(LOOKUP_CODE_TTL_MS / 60_000, asked);
    expect(await verifyLookupCode(t.db, { lookupId: first.lookupId, code: first.code!.code }, { now: late })).toEqual({
      ok: false,
      reason: "expired",
    });
    const second = lookupOf(
      await requestLookupCode(t.db, { orderId: id, phone, clientAddress: "10.42.0.1" }, { now: asked }),
    );
    expect(
      await verifyLookupCode(
        t.db,
        { lookupId: second.lookupId, code: second.code!.code },
        { now: minutesLater(9.9, asked) },
      ),
    ).toEqual({ ok: true, orderId: id });
  });

  it(`dies after ${MAX_WRONG_CODES} wrong codes, even for the right one after them`, async () => {
    const phone = newPhone();
    const { id } = await storeOrder(t.db, { status: "paid", phone });
    const asked = lookupOf(await requestLookupCode(t.db, { orderId: id, phone, clientAddress: "10.43.0.1" }));
    const code = asked.code!.code;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    for (let left = MAX_WRONG_CODES - 1; left > 0; left--)
      expect(await verifyLookupCode(t.db, { lookupId: asked.lookupId, code: wrong })).toEqual({
        ok: false,
        reason: "wrong_code",
        triesLeft: left,
      });
    expect(await verifyLookupCode(t.db, { lookupId: asked.lookupId, code: wrong })).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(await verifyLookupCode(t.db, { lookupId: asked.lookupId, code })).toEqual({ ok: false, reason: "expired" });
    expect((await rowOf(asked.lookupId)).wrongCodes).toBe(MAX_WRONG_CODES);
  });

  it("opens the order for exactly one of ten checks racing on two instances", async () => {
    const phone = newPhone();
    const { id } = await storeOrder(t.db, { status: "paid", phone });
    const asked = lookupOf(await requestLookupCode(t.db, { orderId: id, phone, clientAddress: "10.44.0.1" }));
    const instances = [t.db, createDb(second)];
    const checks = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        verifyLookupCode(instances[i % 2]!, { lookupId: asked.lookupId, code: asked.code!.code }),
      ),
    );
    expect(checks.filter((check) => check.ok)).toEqual([{ ok: true, orderId: id }]);
    expect(checks.filter((check) => !check.ok)).toEqual(Array(9).fill({ ok: false, reason: "expired" }));
  });
});

describe("the budgets", () => {
  it(`refuse the ${LOOKUP_LIMITS.address + 1}st request from one address in an hour without reading the orders table`, async () => {
    const start = minutesLater(-30);
    for (let i = 0; i < LOOKUP_LIMITS.address; i++)
      lookupOf(
        await requestLookupCode(
          t.db,
          { orderId: newOrderId(), phone: newPhone(), clientAddress: "10.45.0.1" },
          { now: minutesLater(i, start) },
        ),
      );
    // Another session holds the orders table: any request that reads it waits, and gives up after lock_timeout.
    const locker = await second.connect();
    const impatient = new Pool({ connectionString: t.url, max: 2, options: "-c lock_timeout=500" });
    try {
      await locker.query("begin; lock table orders in access exclusive mode");
      const db = createDb(impatient);
      // The method works: a request within its budgets reads the orders table, so it cannot finish now.
      await expect(
        requestLookupCode(db, { orderId: newOrderId(), phone: newPhone(), clientAddress: "10.45.0.2" }),
      ).rejects.toThrow();
      // The 21st from the spent address is refused without touching it: the oldest of the 20 frees up in 30 minutes.
      expect(
        await requestLookupCode(db, { orderId: newOrderId(), phone: newPhone(), clientAddress: "10.45.0.1" }),
      ).toEqual({ ok: false, reason: "limited", retryAfterMinutes: 30 });
    } finally {
      await locker.query("rollback");
      locker.release();
      await impatient.end();
    }
    // The refusal wrote no row; another address is not held back.
    expect(await t.db.$count(orderLookups, eq(orderLookups.clientAddress, "10.45.0.1"))).toBe(LOOKUP_LIMITS.address);
    expect(
      await requestLookupCode(t.db, { orderId: newOrderId(), phone: newPhone(), clientAddress: "10.45.0.3" }),
    ).toMatchObject({ ok: true });
  });

  it(`give one phone ${LOOKUP_LIMITS.phone} requests an hour, whatever the orders and addresses, racing on two instances`, async () => {
    const phone = newPhone();
    const { id } = await storeOrder(t.db, { status: "paid", phone });
    const instances = [t.db, createDb(second)];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        requestLookupCode(instances[i % 2]!, {
          orderId: i % 2 ? id : newOrderId(),
          phone: i % 3 ? phone : `+218${phone.slice(1)}`,
          clientAddress: `10.46.0.${i}`,
        }),
      ),
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(LOOKUP_LIMITS.phone);
    expect(answers.filter((answer) => !answer.ok)).toEqual(
      Array(8 - LOOKUP_LIMITS.phone).fill({ ok: false, reason: "limited", retryAfterMinutes: 60 }),
    );
    // An hour on, the phone may ask again.
    expect(
      await requestLookupCode(t.db, { orderId: id, phone, clientAddress: "10.46.1.1" }, { now: minutesLater(60.1) }),
    ).toMatchObject({ ok: true, code: { to: `+218${phone.slice(1)}` } });
  });

  it(`give one order number ${LOOKUP_LIMITS.order} requests an hour, whatever the phones and addresses; the codes texted still work`, async () => {
    const phone = newPhone();
    const { id } = await storeOrder(t.db, { status: "paid", phone });
    const start = minutesLater(-20);
    const own = lookupOf(
      await requestLookupCode(t.db, { orderId: id, phone, clientAddress: "10.47.0.1" }, { now: start }),
    );
    for (let i = 1; i < LOOKUP_LIMITS.order; i++)
      lookupOf(
        await requestLookupCode(
          t.db,
          { orderId: id, phone: newPhone(), clientAddress: `10.47.0.${i + 1}` },
          { now: minutesLater(i, start) },
        ),
      );
    expect(await requestLookupCode(t.db, { orderId: id, phone, clientAddress: "10.47.1.1" })).toEqual({
      ok: false,
      reason: "limited",
      retryAfterMinutes: 40,
    });
    expect(await verifyLookupCode(t.db, { lookupId: own.lookupId, code: own.code!.code })).toEqual({
      ok: false,
      reason: "expired", // twenty minutes old: expired, not refused by the budget
    });
  });
});

describe("what a customer types", () => {
  it("reads an order number in any case, with spaces or dashes, with or without its prefix", () => {
    const id = "ord_7k2m9x4q1w3e5r6t";
    for (const typed of [id, " ORD_7K2M9X4Q1W3E5R6T ", "7k2m 9x4q 1w3e 5r6t", "ord_7k2m-9x4q-1w3e-5r6t"])
      expect(parseOrderNumber(typed)).toBe(id);
    for (const typed of ["", "ord_7k2m9x4q1w3e5r6", "ord_7k2m9x4q1w3e5r6u", "lst_7k2m9x4q1w3e5r6t", "12345"])
      expect(parseOrderNumber(typed)).toBeNull();
  });

  it("reads a code of six digits, Western or Arabic-Indic, with spaces", () => {
    expect(parseLookupCode(" 123 456 ")).toBe("123456");
    expect(parseLookupCode("١٢٣٤٥٦")).toBe("123456");
    expect(parseLookupCode("۰۹۸۷۶۵")).toBe("098765");
    for (const typed of ["12345", "1234567", "12a456", ""]) expect(parseLookupCode(typed)).toBeNull();
  });
});
