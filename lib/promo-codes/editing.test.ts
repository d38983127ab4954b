import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { promoCodeEvents, promoCodes } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import {
  createPromoCode,
  editPromoCode,
  findPromoCodeById,
  listPromoCodeEvents,
  promoCodeFormValues,
  promoCodeInputSchema,
} from "./editing";
import { listPromoCodes } from "./list";

/** The back office's promo codes against a real database: the form's rules, the writes and their audit, the list's uses. */

const t = setUpTestDatabase();
const ADMIN = "owner@medina.example";

/** The code form's fields as typed, with an override or two. */
const codeForm = (fields: Record<string, string | boolean> = {}) => ({
  code: "eid10",
  kind: "percent",
  value: "10",
  minLines: "",
  startsAt: "",
  endsAt: "",
  maxUses: "",
  maxUsesPerCustomer: "",
  enabled: true,
  ...fields,
});

/** The first problem of each field the schema refuses. */
const problems = (fields: Record<string, string | boolean>) => {
  const parsed = promoCodeInputSchema.safeParse(codeForm(fields));
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message]));
};

const eventsOf = (codeId: number) =>
  t.db.select().from(promoCodeEvents).where(eq(promoCodeEvents.codeId, codeId)).orderBy(asc(promoCodeEvents.id));

describe("a code's fields", () => {
  it("reads the code as customers type it, the value by its kind, and times as Libya's wall clock", () => {
    expect(
      promoCodeInputSchema.parse(
        codeForm({
          code: " ramadan٢٦ ",
          kind: "amount",
          value: "٤,٢٥",
          minLines: "100",
          startsAt: "2026-02-18T18:30",
          endsAt: "2026-03-19",
          maxUses: "50",
          maxUsesPerCustomer: "١",
        }),
      ),
    ).toEqual({
      code: "RAMADAN26",
      kind: "amount",
      value: { percent: null, amountMinor: 425 },
      minLines: 10_000,
      // 18:30 in Tripoli is 16:30 UTC; a day alone as the end takes the whole of that day.
      startsAt: new Date("2026-02-18T16:30:00Z"),
      endsAt: new Date("2026-03-19T22:00:00Z"),
      maxUses: 50,
      maxUsesPerCustomer: 1,
      enabled: true,
    });
    expect(promoCodeInputSchema.parse(codeForm({ value: "15 %" })).value).toEqual({ percent: 15, amountMinor: null });
    // Free delivery reads no value; empty limits and dates are none.
    expect(promoCodeInputSchema.parse(codeForm({ kind: "free_delivery", value: "whatever" }))).toMatchObject({
      value: { percent: null, amountMinor: null },
      minLines: 0,
      startsAt: null,
      endsAt: null,
      maxUses: null,
      maxUsesPerCustomer: null,
    });
  });

  it("refuses each wrong field with its own problem, all at once", () => {
    expect(
      problems({
        code: "عيد",
        value: "150",
        minLines: "cheap",
        startsAt: "2026-02-30",
        endsAt: "tomorrow",
        maxUses: "0",
        maxUsesPerCustomer: "1.5",
      }),
    ).toEqual({
      code: "codeInvalid",
      value: "percentInvalid",
      minLines: "minLinesInvalid",
      startsAt: "timeInvalid",
      endsAt: "timeInvalid",
      maxUses: "limitInvalid",
      maxUsesPerCustomer: "limitInvalid",
    });
    expect(problems({ code: " ", kind: "amount", value: "" })).toEqual({ code: "codeMissing", value: "amountMissing" });
    expect(problems({ kind: "amount", value: "0" })).toEqual({ value: "amountInvalid" });
    expect(problems({ kind: "amount", value: "4.2555" })).toEqual({ value: "amountDecimals" });
    expect(problems({ kind: "", value: "" })).toEqual({ kind: "kindMissing" });
    expect(problems({ value: "" })).toEqual({ value: "percentMissing" });
    // The end before the start is said with the other fields' problems.
    expect(problems({ code: "x", startsAt: "2026-03-20 10:00", endsAt: "2026-03-20 09:00" })).toEqual({
      code: "codeInvalid",
      endsAt: "endsBeforeStart",
    });
  });
});

describe("creating and editing a code", () => {
  it("stores it upper case with its audit; the same code in any case is refused", async () => {
    const created = await createPromoCode(t.db, promoCodeInputSchema.parse(codeForm({ code: "Summer5" })), ADMIN);
    expect(created.ok).toBe(true);
    const id = (created as { id: number }).id;
    const row = await findPromoCodeById(t.db, id);
    expect(row).toMatchObject({ code: "SUMMER5", kind: "percent", percent: 10, amountMinor: null, enabled: true });
    expect(await eventsOf(id)).toMatchObject([
      {
        type: "code_created",
        by: ADMIN,
        data: { before: null, after: { code: "SUMMER5", percent: 10, endsAt: null } },
      },
    ]);

    const again = promoCodeInputSchema.parse(codeForm({ code: "summer5", kind: "free_delivery" }));
    expect(await createPromoCode(t.db, again, ADMIN)).toEqual({ ok: false, problem: "code_taken" });
    expect(await t.db.select().from(promoCodes).where(eq(promoCodes.code, "SUMMER5"))).toHaveLength(1);
  });

  it("audits an edit with each changed field before and after; nothing changed writes nothing", async () => {
    const input = promoCodeInputSchema.parse(codeForm({ code: "EID25", endsAt: "2026-04-01 23:59" }));
    const { id } = (await createPromoCode(t.db, input, ADMIN)) as { id: number };
    const other = (await createPromoCode(t.db, promoCodeInputSchema.parse(codeForm({ code: "EID50" })), ADMIN)) as {
      id: number;
    };

    const edited = promoCodeInputSchema.parse(
      codeForm({ code: "EID25", kind: "amount", value: "25", endsAt: "2026-04-01 23:59", maxUses: "100" }),
    );
    expect(await editPromoCode(t.db, id, edited, "manager@medina.example")).toEqual({
      ok: true,
      changed: ["kind", "percent", "amountMinor", "maxUses"],
    });
    expect(await editPromoCode(t.db, id, edited, ADMIN)).toEqual({ ok: true, changed: [] });
    const events = await eventsOf(id);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      type: "code_edited",
      by: "manager@medina.example",
      data: {
        before: { kind: "percent", percent: 10, amountMinor: null, maxUses: null },
        after: { kind: "amount", percent: null, amountMinor: 2500, maxUses: 100 },
      },
    });
    expect((await listPromoCodeEvents(t.db, id)).map((event) => event.type)).toEqual(["code_edited", "code_created"]);

    // Renamed to another code's text: refused, unchanged.
    const clash = promoCodeInputSchema.parse(codeForm({ code: "eid50" }));
    expect(await editPromoCode(t.db, id, clash, ADMIN)).toEqual({ ok: false, problem: "code_taken" });
    expect(await editPromoCode(t.db, other.id + 1000, clash, ADMIN)).toEqual({ ok: false, problem: "not_found" });

    // The form shows what was stored, in Libya's time.
    expect(promoCodeFormValues((await findPromoCodeById(t.db, id))!)).toEqual({
      code: "EID25",
      kind: "amount",
      value: "25.00",
      minLines: "",
      startsAt: "",
      endsAt: "2026-04-01T23:59",
      maxUses: "100",
      maxUsesPerCustomer: "",
      enabled: true,
    });
  });
});

describe("the list", () => {
  it("counts each code's uses, the uses open orders hold and what is left", async () => {
    const input = promoCodeInputSchema.parse(codeForm({ code: "LIST3", maxUses: "3" }));
    const { id } = (await createPromoCode(t.db, input, ADMIN)) as { id: number };
    const withCode = { promoCodeId: id, promoCode: "LIST3", discountMinor: 100 };
    await storeOrder(t.db, { ...withCode, status: "paid" });
    await storeOrder(t.db, { ...withCode, paymentMethod: "cash", status: "confirmed" });
    await storeOrder(t.db, { ...withCode, status: "pending" }); // its payment page is alive: held
    await storeOrder(t.db, { ...withCode, status: "failed" }); // given back
    await storeOrder(t.db, { ...withCode, status: "pending", paymentExpiresAt: new Date(Date.now() - 1000) }); // page dead

    const listed = (await listPromoCodes(t.db)).find((code) => code.row.id === id);
    expect(listed).toMatchObject({ used: 2, held: 1, left: 0 });
    // A limit lowered below what orders already used: nothing left, never a negative count.
    await editPromoCode(t.db, id, promoCodeInputSchema.parse(codeForm({ code: "LIST3", maxUses: "1" })), ADMIN);
    expect((await listPromoCodes(t.db)).find((code) => code.row.id === id)).toMatchObject({
      used: 2,
      held: 1,
      left: 0,
    });
    const unlimited = (await listPromoCodes(t.db)).find((code) => code.row.code === "EID50");
    expect(unlimited).toMatchObject({ used: 0, held: 0, left: null });
  });
});
