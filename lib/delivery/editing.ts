import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Messages } from "next-intl";
import { z } from "zod";
import type { Db, DbOrTx, Tx } from "../db/client";
import {
  deliveryEvents,
  deliveryZones,
  MAX_PRICE_MINOR,
  storePickup,
  type DeliveryEventType,
  type DeliveryZoneRow,
} from "../db/schema";
import { createRow, editRow, editSettings, unlessTaken, type Created } from "../db/edits";
import { parseTypedAmount, westernDigits, type AmountProblem } from "../money";
import { typedText } from "../typed-text";

/**
 * How the back office changes delivery (app/admin/delivery): the schemas a zone's and pickup's fields must pass, and
 * the writes, each in one transaction with its audit row (`delivery_events`: who, when, each field before and after).
 * The checkout reads the result through lib/delivery/zones.ts.
 */

/**
 * What can be wrong with a zone's or pickup's field: a key of `admin.delivery.problems` in the message catalogues
 * (both must have it), translated by the page.
 */
export type DeliveryProblem = keyof Messages["admin"]["delivery"]["problems"];

/** The longest city name the back office accepts, in either language. */
const MAX_CITY_NAME = 60;

/** Text a person typed on one line (lib/typed-text.ts): trimmed, at most `max` characters, no control characters. */
const typed = (max: number, tooLong: DeliveryProblem) =>
  typedText<DeliveryProblem>(max, { tooLong, control: "textControl" });

const cityName = typed(MAX_CITY_NAME, "nameTooLong").pipe(z.string().min(1, "nameMissing" satisfies DeliveryProblem));

/** What to say for each way an amount can be wrong: a key of the caller's problems. */
export type AmountProblems<Problem extends string = DeliveryProblem> = Record<
  AmountProblem | "zero" | "tooHigh",
  Problem
>;

/**
 * An amount in LYD as the merchant types it (`35`, `35.50`, `35,50`, Arabic digits; lib/money.ts) in minor units, at
 * most {@link MAX_PRICE_MINOR}, or `z.NEVER` with its problem (lib/cash/editing.ts uses it for cash's fee and total).
 */
export function typedAmount<Problem extends string>(
  value: string,
  ctx: z.RefinementCtx,
  problems: AmountProblems<Problem>,
  { zeroAllowed = false } = {},
) {
  const minor = parseTypedAmount(value);
  if (typeof minor !== "number") {
    ctx.addIssue({ code: "custom", message: problems[minor] });
    return z.NEVER;
  }
  if (minor === 0 && !zeroAllowed) ctx.addIssue({ code: "custom", message: problems.zero });
  else if (minor > MAX_PRICE_MINOR) ctx.addIssue({ code: "custom", message: problems.tooHigh });
  return minor;
}

const FEE_PROBLEMS: AmountProblems = {
  missing: "feeMissing",
  amount: "feeInvalid",
  amount_negative: "feeInvalid",
  amount_decimals: "feeDecimals",
  amount_ambiguous: "feeAmbiguous",
  zero: "feeInvalid", // not reached: a fee of 0 is free delivery
  tooHigh: "feeTooHigh",
};

const FREE_ABOVE_PROBLEMS: AmountProblems = {
  missing: "freeAboveInvalid", // not reached: empty is "never free"
  amount: "freeAboveInvalid",
  amount_negative: "freeAboveInvalid",
  amount_decimals: "freeAboveDecimals",
  amount_ambiguous: "freeAboveAmbiguous",
  zero: "freeAboveZero",
  tooHigh: "freeAboveTooHigh",
};

/**
 * A zone's fields as the form gives them (text), made what the database stores: the fee in minor units (0 for free
 * delivery); `freeAbove` empty for "never free"; `sortOrder` a whole number (empty is 0). Issue messages are
 * {@link DeliveryProblem}s.
 */
export const zoneInputSchema = z.object({
  nameEn: cityName,
  nameAr: cityName,
  fee: z
    .string()
    .default("")
    .transform((value, ctx) => typedAmount(value, ctx, FEE_PROBLEMS, { zeroAllowed: true })),
  freeAbove: z
    .string()
    .default("")
    .transform((value, ctx) => (value.trim() ? typedAmount(value, ctx, FREE_ABOVE_PROBLEMS) : null)),
  enabled: z.boolean().default(true),
  /** Whether its customers may pay cash on delivery, while the shop takes cash at all (lib/cash/). */
  cashOnDelivery: z.boolean().default(true),
  sortOrder: z
    .string()
    .default("0")
    .transform((value, ctx) => {
      const text = westernDigits(value).trim();
      if (!text) return 0;
      if (!/^-?\d{1,9}$/.test(text)) {
        ctx.addIssue({ code: "custom", message: "sortOrderInvalid" satisfies DeliveryProblem });
        return z.NEVER;
      }
      return Number(text);
    }),
});

/** A valid zone: what the database stores (fees in minor units). */
export type ZoneInput = z.output<typeof zoneInputSchema>;
/** The fields a zone has, as the form names them. */
export type ZoneField = keyof ZoneInput;

/**
 * Pickup's fields as the form gives them: on or off, where (required in both languages when on: the checkout shows it)
 * and when (free text, optional). Issue messages are {@link DeliveryProblem}s.
 */
export const pickupInputSchema = z
  .object({
    enabled: z.boolean().default(false),
    addressEn: typed(300, "addressTooLong"),
    addressAr: typed(300, "addressTooLong"),
    hoursEn: typed(200, "hoursTooLong"),
    hoursAr: typed(200, "hoursTooLong"),
  })
  .superRefine((pickup, ctx) => {
    if (!pickup.enabled) return;
    for (const field of ["addressEn", "addressAr"] as const) {
      if (!pickup[field]) ctx.addIssue({ code: "custom", path: [field], message: "addressMissing" });
    }
  });

/** Valid pickup settings. */
export type PickupInput = z.output<typeof pickupInputSchema>;
/** The fields pickup has, as the form names them. */
export type PickupField = keyof PickupInput;

/** The zone's columns for a {@link ZoneInput}. */
const zoneColumns = (input: ZoneInput) => ({
  nameEn: input.nameEn,
  nameAr: input.nameAr,
  feeMinor: input.fee,
  freeAboveMinor: input.freeAbove,
  enabled: input.enabled,
  cashOnDelivery: input.cashOnDelivery,
  sortOrder: input.sortOrder,
});

/** Writes one audit row of delivery (or of cash on delivery: lib/cash/), in the caller's transaction. */
export async function recordDeliveryEvent(
  db: DbOrTx,
  zoneId: number | null,
  type: DeliveryEventType,
  by: string,
  data: Record<string, unknown>,
): Promise<void> {
  await db.insert(deliveryEvents).values({ zoneId, type, by, data });
}

/** Why a zone's names were refused: another zone already has the English (any case) or the Arabic name. */
export type NameTaken = "nameEnTaken" | "nameArTaken";

/** Which city name another zone has, by the unique index that refused a write; undefined for another index. */
function nameTaken(constraint: string | undefined): NameTaken | undefined {
  if (constraint === "delivery_zones_name_en") return "nameEnTaken";
  if (constraint === "delivery_zones_name_ar") return "nameArTaken";
  return undefined;
}

/** A zone's id as a form or an address gives it (text); undefined when it is not one. */
export function parseZoneId(value: unknown): number | undefined {
  return typeof value === "string" && /^[1-9]\d{0,14}$/.test(value) ? Number(value) : undefined;
}

/** A zone's row as the back office edits it (with its sort order); undefined when there is none. */
export async function findZoneForAdmin(db: DbOrTx, id: number): Promise<DeliveryZoneRow | undefined> {
  const [row] = await db.select().from(deliveryZones).where(eq(deliveryZones.id, id));
  return row;
}

/** The sort order that puts a new zone after every other (the largest plus 10; 10 for the first). */
export async function nextZoneSortOrder(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ next: sql<number>`coalesce(max(${deliveryZones.sortOrder}), 0)::int + 10` })
    .from(deliveryZones);
  return row!.next;
}

/**
 * Adds a delivery zone, with its audit row (`zone_created`, its fields).
 * @param by the admin's e-mail. @returns its id, or which name another zone already has.
 * @throws the database's error for anything else.
 */
export function createZone(db: Db, input: ZoneInput, by: string): Promise<Created<NameTaken>> {
  const values = zoneColumns(input);
  const audit = (tx: Tx, id: number) => recordDeliveryEvent(tx, id, "zone_created", by, { ...values });
  return createRow(db, deliveryZones, values, audit, nameTaken);
}

/**
 * Changes a zone (names, fee, free-above total, on/off, cash on delivery allowed, order), with its audit row (`zone_edited`: each changed field,
 * before and after). An edit that changes nothing writes nothing. The checkout prices with the new fee from its next
 * request; orders already placed keep the fee they were sold with.
 * @returns `ok` (with the changed fields), or which name another zone already has, or `not_found`.
 * @throws the database's error for anything else.
 */
export async function editZone(
  db: Db,
  id: number,
  input: ZoneInput,
  by: string,
): Promise<{ ok: true; changed: string[] } | { ok: false; problem: NameTaken | "not_found" }> {
  return unlessTaken(
    db,
    async (tx) => {
      const changed = await editRow(tx, deliveryZones, id, zoneColumns(input), (changes) =>
        recordDeliveryEvent(tx, id, "zone_edited", by, { changes }),
      );
      return changed ? { ok: true as const, changed } : { ok: false as const, problem: "not_found" as const };
    },
    nameTaken,
  );
}

/**
 * Changes pickup's settings, with its audit row (`pickup_edited`: each changed field, before and after). An edit
 * that changes nothing writes nothing. (The database refuses pickup on without both addresses; the schema says so
 * first, by field.)
 * @returns the changed fields.
 */
export async function editPickup(db: Db, input: PickupInput, by: string): Promise<{ changed: string[] }> {
  return db.transaction(async (tx) => {
    const changed = await editSettings(tx, storePickup, input, (changes) =>
      recordDeliveryEvent(tx, null, "pickup_edited", by, { changes }),
    );
    return { changed };
  });
}
