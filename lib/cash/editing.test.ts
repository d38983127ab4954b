import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cashBlockedPhones, cashOnDelivery, deliveryEvents } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import { cashSettingsInputSchema, editCashSettings, listBlockedPhones, listCashEvents } from "./editing";
import { readCashSettings } from "./settings";

/** The back office's changes to cash on delivery against a real database: the fields' rules, the write and its audit. */

const t = setUpTestDatabase();
const ADMIN = "owner@medina.example";

/** The cash form's fields as typed, with an override or two. */
const cashForm = (fields: Record<string, string | boolean> = {}) => ({
  enabled: true,
  atPickup: false,
  maxTotal: "",
  fee: "",
  confirmWithinHours: "48",
  ...fields,
});

/** The first problem of each field the schema refuses. */
const problems = (fields: Record<string, string | boolean>) => {
  const parsed = cashSettingsInputSchema.safeParse(cashForm(fields));
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message]));
};

const cashEvents = () =>
  t.db.select().from(deliveryEvents).where(eq(deliveryEvents.type, "cash_edited")).orderBy(asc(deliveryEvents.id));

describe("the cash settings' fields", () => {
  it("takes amounts as the merchant types them; an empty highest total is no limit and an empty fee none", () => {
    expect(cashSettingsInputSchema.parse(cashForm({ maxTotal: "150", fee: "2.50", confirmWithinHours: "24" }))).toEqual(
      { enabled: true, atPickup: false, maxTotal: 15_000, fee: 250, confirmWithinHours: 24 },
    );
    expect(
      cashSettingsInputSchema.parse(cashForm({ maxTotal: " ١٥٠٫٥٠ د.ل ", fee: "0", confirmWithinHours: "٧٢٠" })),
    ).toMatchObject({ maxTotal: 15_050, fee: 0, confirmWithinHours: 720 });
    expect(cashSettingsInputSchema.parse(cashForm({ maxTotal: "  ", fee: "" }))).toMatchObject({
      maxTotal: null,
      fee: 0,
    });
  });

  it("refuses each bad field with its own problem", () => {
    expect(problems({ maxTotal: "0", fee: "-5", confirmWithinHours: "" })).toEqual({
      maxTotal: "maxTotalZero",
      fee: "feeInvalid",
      confirmWithinHours: "hoursMissing",
    });
    expect(problems({ maxTotal: "lots", fee: "2.5555", confirmWithinHours: "0" })).toEqual({
      maxTotal: "maxTotalInvalid",
      fee: "amountDecimals",
      confirmWithinHours: "hoursInvalid",
    });
    expect(problems({ maxTotal: "1,500", fee: "1000000.01", confirmWithinHours: "721" })).toEqual({
      maxTotal: "amountAmbiguous",
      fee: "amountTooHigh",
      confirmWithinHours: "hoursInvalid",
    });
    expect(problems({ confirmWithinHours: "1.5" })).toEqual({ confirmWithinHours: "hoursInvalid" });
    expect(problems({ maxTotal: "1000000", fee: "1000000", confirmWithinHours: "1" })).toEqual({});
  });
});

describe("the back office's changes to cash on delivery", () => {
  it("starts off, with no fee, no limit and 48 hours to confirm", async () => {
    expect(await readCashSettings(t.db)).toMatchObject({
      enabled: false,
      atPickup: false,
      maxTotalMinor: null,
      feeMinor: 0,
      confirmWithinHours: 48,
    });
  });

  it("turns cash on with a limit and a fee, auditing each field before and after; an edit that changes nothing writes nothing", async () => {
    const input = cashSettingsInputSchema.parse(cashForm({ atPickup: true, maxTotal: "150.50", fee: "5" }));
    expect(await editCashSettings(t.db, input, ADMIN)).toEqual({
      changed: ["enabled", "atPickup", "maxTotalMinor", "feeMinor"],
    });
    expect(await readCashSettings(t.db)).toMatchObject({
      enabled: true,
      atPickup: true,
      maxTotalMinor: 15_050,
      feeMinor: 500,
      confirmWithinHours: 48,
    });
    expect(await cashEvents()).toMatchObject([
      {
        type: "cash_edited",
        by: ADMIN,
        zoneId: null,
        data: {
          changes: {
            enabled: [false, true],
            atPickup: [false, true],
            maxTotalMinor: [null, 15_050],
            feeMinor: [0, 500],
          },
        },
      },
    ]);

    expect(await editCashSettings(t.db, input, ADMIN)).toEqual({ changed: [] });
    expect(await cashEvents()).toHaveLength(1);

    const later = cashSettingsInputSchema.parse(cashForm({ atPickup: true, fee: "5", confirmWithinHours: "24" }));
    expect(await editCashSettings(t.db, later, "manager@medina.example")).toEqual({
      changed: ["maxTotalMinor", "confirmWithinHours"],
    });
    const events = await listCashEvents(t.db);
    expect(events.map(({ type, by, data }) => ({ type, by, data }))).toEqual([
      {
        type: "cash_edited",
        by: "manager@medina.example",
        data: { changes: { maxTotalMinor: [15_050, null], confirmWithinHours: [48, 24] } },
      },
      { type: "cash_edited", by: ADMIN, data: (await cashEvents())[0]!.data },
    ]);
  });

  it("makes the row again if a database lost it, and the database refuses what the form would", async () => {
    await t.db.execute(sql`delete from cash_on_delivery`);
    expect(await readCashSettings(t.db)).toMatchObject({ enabled: false, confirmWithinHours: 48 });
    const input = cashSettingsInputSchema.parse(cashForm({ confirmWithinHours: "12" }));
    expect(await editCashSettings(t.db, input, ADMIN)).toEqual({ changed: ["enabled", "confirmWithinHours"] });
    expect(await t.db.select().from(cashOnDelivery)).toMatchObject([{ id: 1, enabled: true, confirmWithinHours: 12 }]);
    await expect(editCashSettings(t.db, { ...input, confirmWithinHours: 721 }, ADMIN)).rejects.toThrow(
      /cash_on_delivery_confirm_within_range/,
    );
    expect(await readCashSettings(t.db)).toMatchObject({ confirmWithinHours: 12 });
  });

  it("lists the blocked phones, the latest block first, and the phones' audit rows among cash's changes", async () => {
    expect(await listBlockedPhones(t.db)).toEqual([]);
    await t.db.insert(cashBlockedPhones).values([
      { phone: "0911111111", blockedBy: ADMIN, note: "refused twice", blockedAt: new Date("2026-11-20T10:00:00Z") },
      { phone: "0922222222", blockedBy: ADMIN, blockedAt: new Date("2026-11-25T10:00:00Z") },
    ]);
    expect((await listBlockedPhones(t.db)).map(({ phone, note }) => [phone, note])).toEqual([
      ["0922222222", ""],
      ["0911111111", "refused twice"],
    ]);
    await t.db.insert(deliveryEvents).values([
      { type: "pickup_edited", by: ADMIN, data: { changes: { enabled: [false, true] } } },
      { type: "phone_blocked", by: ADMIN, data: { phone: "0922222222", note: "" } },
    ]);
    const [latest, ...older] = await listCashEvents(t.db);
    expect(latest).toMatchObject({ type: "phone_blocked", by: ADMIN, data: { phone: "0922222222" } });
    expect(older.every((event) => event.type === "cash_edited")).toBe(true); // delivery's own rows are not cash's
  });
});
