import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deliveryEvents, deliveryZones } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import {
  createZone,
  editPickup,
  editZone,
  findZoneForAdmin,
  nextZoneSortOrder,
  pickupInputSchema,
  zoneInputSchema,
} from "./editing";
import { toWireAmount as toWire } from "../money";
import { findEnabledZone, readPickup } from "./zones";

/** The back office's changes to delivery against a real database: the fields' rules, the writes and their audit. */

const t = setUpTestDatabase();
const ADMIN = "owner@medina.example";

/** The zone form's fields as typed, with an override or two. */
const zoneForm = (fields: Record<string, string | boolean> = {}) => ({
  nameEn: "Ghat",
  nameAr: "غات",
  fee: "55",
  freeAbove: "",
  enabled: true,
  sortOrder: "210",
  ...fields,
});

/** The first problem of each field the zone schema refuses. */
const zoneProblems = (fields: Record<string, string | boolean>) => {
  const parsed = zoneInputSchema.safeParse(zoneForm(fields));
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message]));
};

const zoneByName = async (nameEn: string) =>
  (await t.db.select().from(deliveryZones).where(eq(deliveryZones.nameEn, nameEn)))[0]!;

const eventsOf = (zoneId: number | null) =>
  t.db
    .select()
    .from(deliveryEvents)
    .where(zoneId === null ? sql`${deliveryEvents.zoneId} is null` : eq(deliveryEvents.zoneId, zoneId))
    .orderBy(asc(deliveryEvents.id));

describe("a zone's fields", () => {
  it("takes the fee as the merchant types it, 0 included, and an optional free-above total", () => {
    expect(zoneInputSchema.parse(zoneForm({ fee: " ٣٥,٥٠ د.ل ", freeAbove: "1.250,00" }))).toEqual({
      nameEn: "Ghat",
      nameAr: "غات",
      fee: 3550,
      freeAbove: 125_000,
      enabled: true,
      cashOnDelivery: true,
      sortOrder: 210,
    });
    expect(zoneInputSchema.parse(zoneForm({ fee: "0", freeAbove: "  ", sortOrder: "" }))).toMatchObject({
      fee: 0,
      freeAbove: null,
      sortOrder: 0,
    });
    expect(zoneInputSchema.parse(zoneForm({ nameEn: "  Ghat  " })).nameEn).toBe("Ghat");
  });

  it("refuses each bad field with its own problem", () => {
    expect(zoneProblems({ nameEn: "   ", nameAr: "x".repeat(61), fee: "" })).toEqual({
      nameEn: "nameMissing",
      nameAr: "nameTooLong",
      fee: "feeMissing",
    });
    expect(zoneProblems({ nameEn: "Gh\u0007at", fee: "-5", freeAbove: "0", sortOrder: "first" })).toEqual({
      nameEn: "textControl",
      fee: "feeInvalid",
      freeAbove: "freeAboveZero",
      sortOrder: "sortOrderInvalid",
    });
    expect(zoneProblems({ fee: "12.3456", freeAbove: "1,500" })).toEqual({
      fee: "feeDecimals",
      freeAbove: "freeAboveAmbiguous",
    });
    expect(zoneProblems({ fee: "1000000.01", freeAbove: "lots" })).toEqual({
      fee: "feeTooHigh",
      freeAbove: "freeAboveInvalid",
    });
    expect(zoneProblems({ nameEn: "x".repeat(60), nameAr: "ب".repeat(60) })).toEqual({});
  });
});

describe("pickup's fields", () => {
  it("requires the address in both languages only when pickup is on", () => {
    const off = { enabled: false, addressEn: "", addressAr: "", hoursEn: "", hoursAr: "" };
    expect(pickupInputSchema.safeParse(off).success).toBe(true);
    const on = pickupInputSchema.safeParse({ ...off, enabled: true, addressEn: " Souq Al-Turk " });
    expect(on.success).toBe(false);
    expect(on.error!.issues.map((issue) => [issue.path[0], issue.message])).toEqual([["addressAr", "addressMissing"]]);
    const tooLong = pickupInputSchema.safeParse({ ...off, hoursAr: "س".repeat(201), addressEn: "a\u0000" });
    expect(tooLong.error!.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["addressEn", "textControl"],
      ["hoursAr", "hoursTooLong"],
    ]);
  });
});

describe("the back office's changes to delivery", () => {
  it("adds a zone, and its audit row says who added what", async () => {
    expect(await nextZoneSortOrder(t.db)).toBe(210); // after Ubari's 200
    const created = await createZone(t.db, zoneInputSchema.parse(zoneForm({ freeAbove: "400" })), ADMIN);
    expect(created.ok).toBe(true);
    const id = (created as { id: number }).id;
    expect(await findEnabledZone(t.db, id)).toMatchObject({
      name: { en: "Ghat", ar: "غات" },
      feeMinor: 5500,
      freeAboveMinor: 40_000,
    });
    const [event, ...more] = await eventsOf(id);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      type: "zone_created",
      by: ADMIN,
      data: { nameEn: "Ghat", nameAr: "غات", feeMinor: 5500, freeAboveMinor: 40_000, enabled: true, sortOrder: 210 },
    });
  });

  it("refuses cash on delivery in a city, auditing it, and allows it again; the checkout's zone says so", async () => {
    const sabha = await zoneByName("Sabha");
    expect(sabha.cashOnDelivery).toBe(true); // every city allows cash until the merchant says otherwise
    const form = zoneForm({
      nameEn: "Sabha",
      nameAr: sabha.nameAr,
      fee: toWire(sabha.feeMinor),
      sortOrder: String(sabha.sortOrder),
    });
    const refused = zoneInputSchema.parse({ ...form, cashOnDelivery: false });
    expect(await editZone(t.db, sabha.id, refused, ADMIN)).toEqual({ ok: true, changed: ["cashOnDelivery"] });
    expect(await findEnabledZone(t.db, sabha.id)).toMatchObject({ cashOnDelivery: false });
    const allowed = zoneInputSchema.parse({ ...form, cashOnDelivery: true });
    expect(await editZone(t.db, sabha.id, allowed, ADMIN)).toEqual({ ok: true, changed: ["cashOnDelivery"] });
    expect(await findEnabledZone(t.db, sabha.id)).toMatchObject({ cashOnDelivery: true });
    expect(await eventsOf(sabha.id)).toMatchObject([
      { type: "zone_edited", by: ADMIN, data: { changes: { cashOnDelivery: [true, false] } } },
      { type: "zone_edited", by: ADMIN, data: { changes: { cashOnDelivery: [false, true] } } },
    ]);
  });

  it("edits a zone's fee and turns it off, auditing each field before and after; an edit that changes nothing writes nothing", async () => {
    const benghazi = await zoneByName("Benghazi");
    const form = zoneForm({ nameEn: "Benghazi", nameAr: "بنغازي", fee: "42.50", enabled: false, sortOrder: "20" });
    const result = await editZone(t.db, benghazi.id, zoneInputSchema.parse(form), ADMIN);
    expect(result).toEqual({ ok: true, changed: ["feeMinor", "enabled"] });
    expect(await findEnabledZone(t.db, benghazi.id)).toBeUndefined();
    expect(await findZoneForAdmin(t.db, benghazi.id)).toMatchObject({ feeMinor: 4250, enabled: false });
    expect(await eventsOf(benghazi.id)).toMatchObject([
      { type: "zone_edited", by: ADMIN, data: { changes: { feeMinor: [3500, 4250], enabled: [true, false] } } },
    ]);

    expect(await editZone(t.db, benghazi.id, zoneInputSchema.parse(form), ADMIN)).toEqual({ ok: true, changed: [] });
    expect(await eventsOf(benghazi.id)).toHaveLength(1);
  });

  it("refuses a city name another zone has, in either language and any case, and writes nothing", async () => {
    const before = await t.db.select().from(deliveryEvents);
    expect(await createZone(t.db, zoneInputSchema.parse(zoneForm({ nameEn: "TRIPOLI" })), ADMIN)).toEqual({
      ok: false,
      problem: "nameEnTaken",
    });
    expect(
      await createZone(t.db, zoneInputSchema.parse(zoneForm({ nameEn: "Tripoli 2", nameAr: "طرابلس" })), ADMIN),
    ).toEqual({
      ok: false,
      problem: "nameArTaken",
    });
    const misrata = await zoneByName("Misrata");
    const renamed = zoneInputSchema.parse(zoneForm({ nameEn: "misrata", nameAr: "زليتن" }));
    expect(await editZone(t.db, misrata.id, renamed, ADMIN)).toEqual({ ok: false, problem: "nameArTaken" });
    expect(await zoneByName("Misrata")).toMatchObject({ nameAr: "مصراتة", feeMinor: misrata.feeMinor });
    expect(await t.db.select().from(deliveryEvents)).toHaveLength(before.length);
  });

  it("says not_found for a zone that does not exist", async () => {
    expect(await editZone(t.db, 987_654, zoneInputSchema.parse(zoneForm()), ADMIN)).toEqual({
      ok: false,
      problem: "not_found",
    });
  });

  it("turns pickup on with its address and hours, auditing what changed", async () => {
    const input = pickupInputSchema.parse({
      enabled: true,
      addressEn: "Souq Al-Turk, Old City, Tripoli",
      addressAr: "سوق الترك، المدينة القديمة، طرابلس",
      hoursEn: "Sat–Thu 9:00–21:00",
      hoursAr: "",
    });
    expect(await editPickup(t.db, input, ADMIN)).toEqual({ changed: ["enabled", "addressEn", "addressAr", "hoursEn"] });
    expect(await readPickup(t.db)).toEqual({
      enabled: true,
      address: { en: "Souq Al-Turk, Old City, Tripoli", ar: "سوق الترك، المدينة القديمة، طرابلس" },
      hours: { en: "Sat–Thu 9:00–21:00", ar: "" },
    });
    expect(await eventsOf(null)).toMatchObject([
      {
        type: "pickup_edited",
        by: ADMIN,
        data: { changes: { enabled: [false, true], hoursEn: ["", "Sat–Thu 9:00–21:00"] } },
      },
    ]);
    expect(await editPickup(t.db, input, ADMIN)).toEqual({ changed: [] });
    expect(await eventsOf(null)).toHaveLength(1);
  });
});
