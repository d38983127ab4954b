import "server-only";
import { asc, desc, inArray } from "drizzle-orm";
import type { Messages } from "next-intl";
import { z } from "zod";
import type { Db, DbOrTx } from "../db/client";
import {
  cashBlockedPhones,
  cashOnDelivery,
  deliveryEvents,
  type CashBlockedPhoneRow,
  type DeliveryEventType,
} from "../db/schema";
import { recordDeliveryEvent, typedAmount, type AmountProblems } from "../delivery/editing";
import { editSettings } from "../db/edits";
import { westernDigits } from "../money";

/**
 * How the back office changes cash on delivery's settings (app/admin/cash): the schema the form's fields must pass,
 * and the write, in one transaction with its audit row (`delivery_events`, type `cash_edited`: who, when, each field
 * before and after), as delivery's settings are (lib/delivery/editing.ts). Which cities allow cash is a zone's own
 * field, edited with the zone.
 */

/**
 * What can be wrong with a field of the cash settings: a key of `admin.cash.problems` in the message catalogues (both
 * must have it), translated by the page.
 */
export type CashProblem = keyof Messages["admin"]["cash"]["problems"];

/** How long a placed cash order may wait for the merchant's call, in hours (the database checks the same range). */
const CONFIRM_WITHIN_HOURS = { min: 1, max: 720 } as const;

const MAX_TOTAL_PROBLEMS: AmountProblems<CashProblem> = {
  missing: "maxTotalInvalid", // not reached: empty is "no limit"
  amount: "maxTotalInvalid",
  amount_negative: "maxTotalInvalid",
  amount_decimals: "amountDecimals",
  amount_ambiguous: "amountAmbiguous",
  zero: "maxTotalZero",
  tooHigh: "amountTooHigh",
};

const FEE_PROBLEMS: AmountProblems<CashProblem> = {
  missing: "feeInvalid", // not reached: empty is no fee
  amount: "feeInvalid",
  amount_negative: "feeInvalid",
  amount_decimals: "amountDecimals",
  amount_ambiguous: "amountAmbiguous",
  zero: "feeInvalid", // not reached: 0 is no fee
  tooHigh: "amountTooHigh",
};

/**
 * The cash settings' fields as the form gives them (text and checkboxes), made what the database stores: `maxTotal`
 * and `fee` in minor units (LYD as typed, lib/money.ts; `maxTotal` empty for no limit, `fee` empty for none), and
 * `confirmWithinHours` a whole number of hours from 1 to 720. Issue messages are {@link CashProblem}s.
 */
export const cashSettingsInputSchema = z.object({
  enabled: z.boolean().default(false),
  atPickup: z.boolean().default(false),
  maxTotal: z
    .string()
    .default("")
    .transform((value, ctx) => (value.trim() ? typedAmount(value, ctx, MAX_TOTAL_PROBLEMS) : null)),
  fee: z
    .string()
    .default("")
    .transform((value, ctx) => (value.trim() ? typedAmount(value, ctx, FEE_PROBLEMS, { zeroAllowed: true }) : 0)),
  confirmWithinHours: z
    .string()
    .default("")
    .transform((value, ctx) => {
      const text = westernDigits(value).trim();
      const hours = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
      if (hours >= CONFIRM_WITHIN_HOURS.min && hours <= CONFIRM_WITHIN_HOURS.max) return hours;
      ctx.addIssue({ code: "custom", message: (text ? "hoursInvalid" : "hoursMissing") satisfies CashProblem });
      return z.NEVER;
    }),
});

/** Valid cash settings: what the database stores (money in minor units). */
export type CashSettingsInput = z.output<typeof cashSettingsInputSchema>;
/** The fields the cash settings have, as the form names them. */
export type CashSettingsField = keyof CashSettingsInput;

/** The row's columns for a {@link CashSettingsInput}. */
const cashColumns = (input: CashSettingsInput) => ({
  enabled: input.enabled,
  atPickup: input.atPickup,
  maxTotalMinor: input.maxTotal,
  feeMinor: input.fee,
  confirmWithinHours: input.confirmWithinHours,
});

/**
 * Changes cash on delivery's settings (on/off, pay at pickup, highest total, fee, hours to confirm), with its audit
 * row (`cash_edited`: each changed column, before and after). An edit that changes nothing writes nothing. The
 * checkout offers and prices cash with the new settings from its next request; orders already placed keep their fee
 * and their deadline.
 * @param by the admin's e-mail. @returns the changed columns.
 */
export async function editCashSettings(db: Db, input: CashSettingsInput, by: string): Promise<{ changed: string[] }> {
  return db.transaction(async (tx) => {
    const changed = await editSettings(tx, cashOnDelivery, cashColumns(input), (changes) =>
      recordDeliveryEvent(tx, null, "cash_edited", by, { changes }),
    );
    return { changed };
  });
}

/** The audit rows of cash on delivery: its settings edited, a phone blocked or allowed again. */
const CASH_EVENT_TYPES = ["cash_edited", "phone_blocked", "phone_unblocked"] as const satisfies DeliveryEventType[];

/** One audit row of cash on delivery, as the back office lists it. */
export interface CashEvent {
  id: number;
  type: (typeof CASH_EVENT_TYPES)[number];
  /** The admin's e-mail. */
  by: string;
  at: Date;
  /** `cash_edited`: `{ changes: { column: [before, after] } }`; a phone's: `{ phone, note? }`. */
  data: Record<string, unknown>;
}

/** The latest audit rows of cash on delivery, newest first (at most `limit`). */
export async function listCashEvents(db: DbOrTx, limit = 20): Promise<CashEvent[]> {
  const rows = await db
    .select()
    .from(deliveryEvents)
    .where(inArray(deliveryEvents.type, CASH_EVENT_TYPES))
    .orderBy(desc(deliveryEvents.id))
    .limit(limit);
  return rows.map(({ id, type, by, at, data }) => ({ id, type: type as CashEvent["type"], by, at, data }));
}

/**
 * The phone numbers blocked from paying cash, the latest block first, as the cash page lists them (the merchant blocks
 * and unblocks a number from one of its orders' pages).
 */
export async function listBlockedPhones(db: DbOrTx): Promise<CashBlockedPhoneRow[]> {
  return db.select().from(cashBlockedPhones).orderBy(desc(cashBlockedPhones.blockedAt), asc(cashBlockedPhones.phone));
}
