import "server-only";
import { desc, eq } from "drizzle-orm";
import type { Messages } from "next-intl";
import { z } from "zod";
import type { Db, DbOrTx, Tx } from "../db/client";
import { MAX_PRICE_MINOR, PROMO_CODE_KINDS, promoCodeEvents, promoCodes, type PromoCodeRow } from "../db/schema";
import { createRow, editRow, unlessTaken, type Changes, type Created } from "../db/edits";
import { typedAmount, type AmountProblems } from "../delivery/editing";
import { parseTypedAmount, westernDigits } from "../money";
import { tripoliMidnight, tripoliTime } from "../time";
import { normaliseCode, PROMO_CODE_PATTERN } from "./codes";

/**
 * How the back office creates and changes promo codes (app/admin/promo-codes): the schema the code form's fields must
 * pass, and the writes, each in one transaction with its audit row (`promo_code_events`: who, when, the fields before
 * and after), as delivery's zones are (lib/delivery/editing.ts). The checkout reads the result on its next request.
 */

/**
 * What can be wrong with a code form's field: a key of `admin.promo.problems` in the message catalogues (both must
 * have it), translated by the page.
 */
export type PromoProblem = keyof Messages["admin"]["promo"]["problems"];

/** The most a limit of uses may be (the column is a 32-bit integer; no shop needs more). */
const MAX_LIMIT = 1_000_000;

const AMOUNT_PROBLEMS: AmountProblems<PromoProblem> = {
  missing: "amountMissing",
  amount: "amountInvalid",
  amount_negative: "amountInvalid",
  amount_decimals: "amountDecimals",
  amount_ambiguous: "amountAmbiguous",
  zero: "amountInvalid",
  tooHigh: "amountTooHigh",
};

const MIN_LINES_PROBLEMS: AmountProblems<PromoProblem> = {
  missing: "minLinesInvalid", // not reached: empty is no minimum
  amount: "minLinesInvalid",
  amount_negative: "minLinesInvalid",
  amount_decimals: "amountDecimals",
  amount_ambiguous: "amountAmbiguous",
  zero: "minLinesInvalid", // not reached: 0 is no minimum
  tooHigh: "amountTooHigh",
};

/** `2026-03-20`, `2026-03-20 18:30` or `2026-03-20T18:30` (what a `datetime-local` field sends), Libya's wall clock. */
const LIBYA_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2}))?$/;

/**
 * A time the merchant typed as Libya's wall clock (Africa/Tripoli; see {@link LIBYA_TIME}), as an instant; a day
 * alone is its first minute for a start and its end (the next day's midnight) for an end, so "ends 2026-03-30" takes
 * the code on the whole of the 30th. Empty is null (no start, no end).
 */
function libyaTime(edge: "start" | "end") {
  return z
    .string()
    .default("")
    .transform((value, ctx) => {
      const text = westernDigits(value).trim();
      if (!text) return null;
      const match = LIBYA_TIME.exec(text);
      const [hours, minutes] = [Number(match?.[2] ?? 0), Number(match?.[3] ?? 0)];
      const day = match?.[1];
      const midnight = day && isCalendarDay(day) ? tripoliMidnight(day) : undefined;
      if (!midnight || hours > 23 || minutes > 59) {
        ctx.addIssue({ code: "custom", message: "timeInvalid" satisfies PromoProblem });
        return z.NEVER;
      }
      if (match![2] === undefined && edge === "end") return new Date(midnight.getTime() + 24 * 3_600_000);
      return new Date(midnight.getTime() + (hours * 60 + minutes) * 60_000);
    });
}

/** Whether `YYYY-MM-DD` is a day of the calendar (not 2026-02-30). */
function isCalendarDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** A limit of uses: a whole number from 1, or empty for no limit. */
const limit = z
  .string()
  .default("")
  .transform((value, ctx) => {
    const text = westernDigits(value).trim();
    if (!text) return null;
    const count = /^\d{1,7}$/.test(text) ? Number(text) : NaN;
    if (count >= 1 && count <= MAX_LIMIT) return count;
    ctx.addIssue({ code: "custom", message: "limitInvalid" satisfies PromoProblem });
    return z.NEVER;
  });

/** What a code takes off, as the form's `kind` and `value` give it (see {@link promoCodeInputSchema}). */
const amountOff = z.object({ kind: z.unknown(), text: z.string() }).transform(({ kind, text }, ctx) => {
  const problem = (message: PromoProblem) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  if (kind === "percent") {
    const digits = westernDigits(text)
      .trim()
      .replace(/\s*[%٪]$/, "");
    const percent = /^\d{1,3}$/.test(digits) ? Number(digits) : NaN;
    if (percent >= 1 && percent <= 100) return { percent, amountMinor: null };
    return problem(digits ? "percentInvalid" : "percentMissing");
  }
  if (kind === "amount") {
    const minor = parseTypedAmount(text);
    if (typeof minor !== "number") return problem(AMOUNT_PROBLEMS[minor]);
    if (minor === 0) return problem("amountInvalid");
    if (minor > MAX_PRICE_MINOR) return problem("amountTooHigh");
    return { percent: null, amountMinor: minor };
  }
  return { percent: null, amountMinor: null };
});

/** A field of the code form, as it names it: its text fields, its choice of `kind` and its checkbox `enabled`. */
export type PromoCodeField =
  "code" | "kind" | "value" | "minLines" | "startsAt" | "endsAt" | "maxUses" | "maxUsesPerCustomer" | "enabled";

/**
 * A code's fields as the form gives them (text and a checkbox), made what the database stores. `code` as the customer
 * will type it (any case, Arabic-Indic digits read as digits: lib/promo-codes/codes.ts), 2–32 letters A–Z and digits.
 * `kind` is `percent`, `amount` or `free_delivery`; `value` is the percentage (a whole number, 1–100) or the amount
 * in LYD as typed (lib/money.ts), and is not read for free delivery. `minLines` in LYD (empty: no minimum);
 * `startsAt`/`endsAt` in Libya's time (empty: at once / for ever; the end after the start); `maxUses` and
 * `maxUsesPerCustomer` whole numbers from 1 (empty: no limit). Issue messages are {@link PromoProblem}s, each on its
 * field.
 */
export const promoCodeInputSchema = z.preprocess(
  // The value is read by the kind: both go to its schema, so its problem is found with every other field's.
  (raw) =>
    raw && typeof raw === "object"
      ? { ...raw, value: { kind: (raw as { kind?: unknown }).kind, text: (raw as { value?: unknown }).value ?? "" } }
      : raw,
  z
    .object({
      code: z
        .string()
        .default("")
        .transform((value, ctx) => {
          const code = normaliseCode(value.slice(0, 100));
          if (PROMO_CODE_PATTERN.test(code)) return code;
          ctx.addIssue({ code: "custom", message: (code ? "codeInvalid" : "codeMissing") satisfies PromoProblem });
          return z.NEVER;
        }),
      kind: z.enum(PROMO_CODE_KINDS, { error: "kindMissing" satisfies PromoProblem }),
      value: amountOff,
      minLines: z
        .string()
        .default("")
        .transform((value, ctx) =>
          value.trim() ? typedAmount(value, ctx, MIN_LINES_PROBLEMS, { zeroAllowed: true }) : 0,
        ),
      startsAt: libyaTime("start"),
      endsAt: libyaTime("end"),
      maxUses: limit,
      maxUsesPerCustomer: limit,
      enabled: z.boolean().default(true),
    })
    .refine((input) => !input.startsAt || !input.endsAt || input.startsAt < input.endsAt, {
      path: ["endsAt"],
      message: "endsBeforeStart" satisfies PromoProblem,
      // Said with the other fields' problems, once both times could be read.
      when: ({ issues }) => !issues.some((issue) => issue.path?.[0] === "startsAt" || issue.path?.[0] === "endsAt"),
    }),
);

/** A valid code: what the database stores (money in minor units, times as instants). */
export type PromoCodeInput = z.output<typeof promoCodeInputSchema>;

/** A code's columns for a {@link PromoCodeInput}. */
const codeColumns = (input: PromoCodeInput) => ({
  code: input.code,
  kind: input.kind,
  percent: input.value.percent,
  amountMinor: input.value.amountMinor,
  minLinesMinor: input.minLines,
  startsAt: input.startsAt,
  endsAt: input.endsAt,
  maxUses: input.maxUses,
  maxUsesPerCustomer: input.maxUsesPerCustomer,
  enabled: input.enabled,
});

/**
 * An audit row's account of an edit, as a code's page lists it: `{ before, after }`, each with the changed columns
 * (lib/db/edits.ts).
 */
const beforeAndAfter = (changed: Changes) => ({
  before: Object.fromEntries(Object.entries(changed).map(([column, [before]]) => [column, before])),
  after: Object.fromEntries(Object.entries(changed).map(([column, [, after]]) => [column, after])),
});

/** A write refused because another code is already written so (any case: codes are stored upper case). */
const codeTaken = (constraint: string | undefined) => (constraint === "promo_codes_code" ? "code_taken" : undefined);

/** A code's id as a form or an address gives it (text); undefined when it is not one. */
export function parsePromoCodeId(value: unknown): number | undefined {
  return typeof value === "string" && /^[1-9]\d{0,14}$/.test(value) ? Number(value) : undefined;
}

/** A code's row, or undefined when there is none. */
export async function findPromoCodeById(db: DbOrTx, id: number): Promise<PromoCodeRow | undefined> {
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.id, id));
  return row;
}

/** A code's row as the code form shows it: the text each field had (money in LYD, times in Libya's, `YYYY-MM-DDTHH:mm`). */
export function promoCodeFormValues(row: PromoCodeRow) {
  const libya = (at: Date | null) => (at ? tripoliTime(at).slice(0, 16).replace(" ", "T") : "");
  const lyd = (minor: number) => (minor / 100).toFixed(2);
  return {
    code: row.code,
    kind: row.kind,
    value: row.kind === "percent" ? String(row.percent) : row.kind === "amount" ? lyd(row.amountMinor!) : "",
    minLines: row.minLinesMinor === 0 ? "" : lyd(row.minLinesMinor),
    startsAt: libya(row.startsAt),
    endsAt: libya(row.endsAt),
    maxUses: row.maxUses === null ? "" : String(row.maxUses),
    maxUsesPerCustomer: row.maxUsesPerCustomer === null ? "" : String(row.maxUsesPerCustomer),
    enabled: row.enabled,
  };
}

/**
 * Adds a promo code, with its audit row (`code_created`: `{ before: null, after }`, its columns).
 * @param by the admin's e-mail. @returns its id, or `code_taken` when another code is already written so (any case).
 * @throws the database's error for anything else.
 */
export function createPromoCode(db: Db, input: PromoCodeInput, by: string): Promise<Created<"code_taken">> {
  const after = codeColumns(input);
  // Its times are kept as ISO 8601 instants, as JSON writes a Date.
  const audit = (tx: Tx, codeId: number) =>
    tx.insert(promoCodeEvents).values({ codeId, type: "code_created", by, data: { before: null, after } });
  return createRow(db, promoCodes, after, audit, codeTaken);
}

/**
 * Changes a promo code (any of its fields, the code itself included), with its audit row (`code_edited`:
 * `{ before, after }`, each with the changed columns). An edit that changes nothing writes nothing. Orders already
 * placed keep the code and the discount they were priced with; their uses still count against the new limits.
 * @returns `ok` (with the changed columns), `code_taken` when another code is already written so, or `not_found`.
 * @throws the database's error for anything else.
 */
export async function editPromoCode(
  db: Db,
  id: number,
  input: PromoCodeInput,
  by: string,
): Promise<{ ok: true; changed: string[] } | { ok: false; problem: "code_taken" | "not_found" }> {
  return unlessTaken(
    db,
    async (tx) => {
      // The checkout's claim locks this row while it holds a use: an edit waits for the claim, and the claim for it.
      const changed = await editRow(tx, promoCodes, id, codeColumns(input), (changes) =>
        tx.insert(promoCodeEvents).values({ codeId: id, type: "code_edited", by, data: beforeAndAfter(changes) }),
      );
      return changed ? { ok: true as const, changed } : { ok: false as const, problem: "not_found" as const };
    },
    codeTaken,
  );
}

/** One audited change of a code, as its page lists it. */
export type PromoCodeEvent = Pick<typeof promoCodeEvents.$inferSelect, "id" | "type" | "by" | "at"> & {
  data: { before: Record<string, unknown> | null; after: Record<string, unknown> };
};

/** A code's audited changes, newest first (at most `limit`). */
export async function listPromoCodeEvents(db: DbOrTx, codeId: number, limit = 50): Promise<PromoCodeEvent[]> {
  const rows = await db
    .select({
      id: promoCodeEvents.id,
      type: promoCodeEvents.type,
      by: promoCodeEvents.by,
      at: promoCodeEvents.at,
      data: promoCodeEvents.data,
    })
    .from(promoCodeEvents)
    .where(eq(promoCodeEvents.codeId, codeId))
    .orderBy(desc(promoCodeEvents.id))
    .limit(limit);
  return rows as PromoCodeEvent[];
}
