import { parseCsv } from "../csv";
import { ORDER_ID } from "../ids";
import { tripoliDay } from "../time";
import { parseTypedAmount, westernDigits, type AmountProblem, type MinorUnits } from "../money";

/**
 * The merchant dashboard's list of payments, read from the CSV the merchant pastes or uploads in the back office
 * (lib/admin/reconcile.ts matches it against the orders). The payment service has no call to ask about a payment
 * (docs/payment-service.md, "What is still unknown"), so this list is the shop's only other source of truth.
 *
 * Liberal in what it accepts, since nobody knows the dashboard's exact export and merchants edit lists in Excel:
 * - a header row with names in English or Arabic, in any order and case, with extra columns ignored (see
 *   {@link HEADER_NAMES}), or no header at all: then the columns are payment token or order number, amount, reference;
 * - commas, semicolons, tabs or bars between cells (the header row's most frequent one), a byte order mark, quotes;
 * - amounts like `103.75`, `103,75`, `1,234.50`, `1.234,50`, `1 234,50`, `LYD 103.75`, `١٠٣٫٧٥ د.ل`;
 * - dates like `2025-03-04`, `2025-03-04T10:20:00Z`, `04/03/2025 10:20` (day first, as in Libya, unless the column
 *   shows otherwise);
 * - a status column, when there is one: only completed payments count, the others are listed as skipped.
 *
 * Everything else is a problem that names its row (as a spreadsheet numbers it, the header being row 1), its column
 * (letter and header) and what was found. A list with problems is shown, never applied.
 */

/** The largest list the back office reads: about 5,000 payments. Next.js reads no server action over 1 MB. */
export const MAX_LIST_BYTES = 512 * 1024;
/** The most payments one list may hold. */
export const MAX_LIST_ROWS = 10_000;

/** The columns the shop reads; any other column of the list is ignored. */
const LIST_COLUMNS = ["paymentToken", "orderId", "amount", "reference", "date", "status", "currency"] as const;
export type ListColumn = (typeof LIST_COLUMNS)[number];

/**
 * The header names each column is known by, in English and Arabic, compared after {@link normaliseHeader} (case,
 * punctuation, Arabic letter forms and a trailing currency such as "(LYD)" do not matter).
 */
export const HEADER_NAMES: Record<ListColumn, readonly string[]> = {
  paymentToken: ["token", "payment token", "paymenttoken", "payment id", "رمز الدفع", "رمز الدفعة", "الرمز", "رمز"],
  orderId: [
    "order",
    "order id",
    "order number",
    "order no",
    "orderid",
    "custom",
    "merchant reference",
    "رقم الطلب",
    "الطلب",
    "طلب",
    "معرف الطلب",
  ],
  amount: ["amount", "total", "sum", "value", "paid amount", "amount paid", "المبلغ", "مبلغ", "القيمة", "الإجمالي"],
  reference: [
    "reference",
    "transaction reference",
    "transaction ref",
    "transaction id",
    "transaction",
    "transaction number",
    "txn",
    "txn id",
    "ref",
    "reference number",
    "rrn",
    "المرجع",
    "مرجع",
    "رقم المرجع",
    "مرجع العملية",
    "مرجع المعاملة",
    "رقم العملية",
    "رقم المعاملة",
    "المعاملة",
  ],
  date: [
    "date",
    "time",
    "date time",
    "datetime",
    "paid at",
    "paid on",
    "payment date",
    "transaction date",
    "created at",
    "timestamp",
    "التاريخ",
    "تاريخ",
    "الوقت",
    "التاريخ والوقت",
    "تاريخ الدفع",
    "تاريخ العملية",
  ],
  status: ["status", "state", "payment status", "transaction status", "الحالة", "حالة الدفع", "حالة العملية"],
  currency: ["currency", "العملة"],
};

/** Statuses that mean "paid" (normalised like headers); with a status column, any other row is skipped. */
const COMPLETED = new Set(
  [
    "success",
    "successful",
    "succeeded",
    "paid",
    "complete",
    "completed",
    "approved",
    "captured",
    "settled",
    "ناجح",
    "ناجحة",
    "مدفوع",
    "مدفوعة",
    "مكتمل",
    "مكتملة",
    "تم الدفع",
    "مقبول",
    "مقبولة",
  ].map((name) => normaliseHeader(name)),
);

/** Ways of writing the dinar, left out of an amount or accepted in a currency column. */
const DINAR = /^(?:lyd|ld|دل|د ل|دينار|دينار ليبي)$/;

/** One payment of the list. */
export interface ListedPayment {
  /** Its row as a spreadsheet numbers it (the header is row 1). */
  row: number;
  /** The payment token, or the shop's order number (`ord_…`, sent to the service as `custom`); at least one. */
  paymentToken: string | null;
  orderId: string | null;
  amountMinor: MinorUnits;
  /** The dashboard's transaction reference, kept with the order when it is marked paid. */
  reference: string;
  /** The merchant's day of the payment (`YYYY-MM-DD`, lib/time.ts), when the list has dates. */
  day: string | null;
  /** The list's own status of a payment that is not completed (it is skipped), else `null`. */
  notCompleted: string | null;
}

/** What is wrong with one cell. */
type CellProblem = AmountProblem | "order_id" | "text" | "date" | "currency";

/** Why a list (or a row of it) cannot be read. */
export type ListProblem =
  | { code: "empty" }
  | { code: "too_many_rows"; max: number }
  /** The CSV itself breaks at this row, e.g. a quote that is never closed. */
  | { code: "unreadable"; row: number }
  /** None of the payment token and order number, or not the amount or the reference. */
  | { code: "missing_column"; column: "payment" | "amount" | "reference" }
  | { code: "cell"; row: number; letter: string; column: string; value: string; problem: CellProblem };

/** A list as read: its payments, and every problem found (a list with problems is not applied). */
export interface PaymentList {
  payments: ListedPayment[];
  problems: ListProblem[];
  /** Whether the list has dates, so that the shop can tell which paid orders it should hold. */
  hasDates: boolean;
}

/**
 * Reads a list of payments (see the module's comment for what it accepts).
 * @param text the list as text: pasted, or a file decoded by `decodeCsvFile` (lib/csv.ts).
 * @returns the payments it holds and the problems found; never throws for bad input.
 */
export function readPaymentList(text: string): PaymentList {
  const none = (problem: ListProblem): PaymentList => ({ payments: [], problems: [problem], hasDates: false });
  const body = text.replace(/^\uFEFF/, "");
  if (!body.trim()) return none({ code: "empty" });
  const parsed = parseCsv(body, MAX_LIST_ROWS);
  if (!parsed.ok) return none({ code: "unreadable", row: parsed.row });
  const rows = parsed.records
    .map((cells, index) => ({ row: index + 1, cells: cells.map(cleanCell) }))
    .filter(({ cells }) => cells.some((cell) => cell !== ""));
  if (rows.length === 0) return none({ code: "empty" });

  const columns = findColumns(rows[0]!.cells);
  const dataRows = columns.header ? rows.slice(1) : rows;
  if (dataRows.length === 0) return none({ code: "empty" });
  if (dataRows.length > MAX_LIST_ROWS) return none({ code: "too_many_rows", max: MAX_LIST_ROWS });
  const at = columns.at;
  const missing: ListProblem[] = [];
  if (at.paymentToken === undefined && at.orderId === undefined)
    missing.push({ code: "missing_column", column: "payment" });
  if (at.amount === undefined) missing.push({ code: "missing_column", column: "amount" });
  if (at.reference === undefined) missing.push({ code: "missing_column", column: "reference" });
  if (missing.length > 0) return { payments: [], problems: missing, hasDates: false };

  const headerOf = (index: number) => (columns.header ? rows[0]!.cells[index] || columnLetter(index) : "");
  const dayFirst = dayComesFirst(at.date === undefined ? [] : dataRows.map(({ cells }) => cells[at.date!] ?? ""));
  const payments: ListedPayment[] = [];
  const problems: ListProblem[] = [];
  for (const { row, cells } of dataRows) {
    const cell = (column: ListColumn) => (at[column] === undefined ? "" : (cells[at[column]!] ?? ""));
    const wrong: { index: number; problem: ListProblem }[] = [];
    const fail = (column: ListColumn, problem: CellProblem) => {
      const index = at[column]!;
      const value = cell(column).slice(0, 80);
      wrong.push({
        index,
        problem: { code: "cell", row, letter: columnLetter(index), column: headerOf(index), value, problem },
      });
    };

    let orderId: string | null = cell("orderId").toLowerCase() || null;
    let paymentToken: string | null = cell("paymentToken") || null;
    // Without a header the first column holds either; an order number is recognised by its shape.
    if (paymentToken && ORDER_ID.test(paymentToken.toLowerCase()) && !orderId) {
      orderId = paymentToken.toLowerCase();
      paymentToken = null;
    }
    if (!orderId && !paymentToken) fail(at.paymentToken !== undefined ? "paymentToken" : "orderId", "missing");
    if (orderId && !ORDER_ID.test(orderId)) fail("orderId", "order_id");
    if (paymentToken && (paymentToken.length > 512 || /\p{Cc}/u.test(paymentToken))) fail("paymentToken", "text");

    const amount = parseTypedAmount(cell("amount"));
    if (typeof amount === "string") fail("amount", amount);
    const reference = cell("reference");
    if (!reference) fail("reference", "missing");
    else if (reference.length > 100 || /\p{Cc}/u.test(reference)) fail("reference", "text");
    const currency = normaliseHeader(cell("currency"));
    if (currency && !DINAR.test(currency)) fail("currency", "currency");
    let day: string | null = null;
    if (at.date !== undefined && cell("date")) {
      day = parseListedDay(cell("date"), dayFirst);
      if (!day) fail("date", "date");
    }
    const status = at.status === undefined ? null : cell("status");

    // Named left to right, as the merchant reads the row.
    problems.push(...wrong.sort((a, b) => a.index - b.index).map(({ problem }) => problem));
    if (wrong.length > 0 || typeof amount === "string") continue;
    payments.push({
      row,
      paymentToken,
      orderId,
      amountMinor: amount,
      reference,
      day,
      notCompleted: status === null || COMPLETED.has(normaliseHeader(status)) ? null : status || "—",
    });
  }
  return { payments, problems, hasDates: at.date !== undefined };
}

/**
 * A cell as a person means it: trimmed, without the invisible direction marks Arabic text carries, and without the
 * guards spreadsheets put around text (`="0012"`, or the apostrophe before a formula character that this shop's own
 * exports add).
 */
function cleanCell(value: string): string {
  const text = value.replace(/[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g, "").trim();
  const guarded = /^="(.*)"$/.exec(text);
  if (guarded) return guarded[1]!.trim();
  return /^'[=+\-@]/.test(text) ? text.slice(1) : text;
}

/**
 * A header as compared with {@link HEADER_NAMES}: lower case, Arabic letter forms unified (أ إ آ → ا, ة → ه, ى → ي,
 * no diacritics or tatweel), punctuation as single spaces, and a trailing currency left out ("Amount (LYD)").
 */
function normaliseHeader(value: string): string {
  return value
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u064b-\u065f\u0670\u0640]/g, "")
    .replace(/[أإآ]/g, "ا")
    .replace(/ة/g, "ه")
    .replace(/ى/g, "ي")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .replace(/ (?:lyd|ld|د ل|دينار)$/, "");
}

const KNOWN_HEADERS = new Map<string, ListColumn>(
  LIST_COLUMNS.flatMap((column) => HEADER_NAMES[column].map((name) => [normaliseHeader(name), column] as const)),
);

/**
 * Which column holds what. A first row with any known header is the header (the first column of each name wins);
 * otherwise there is none and the columns are payment token or order number, amount, reference.
 */
function findColumns(first: string[]): { header: boolean; at: Partial<Record<ListColumn, number>> } {
  const at: Partial<Record<ListColumn, number>> = {};
  first.forEach((cell, index) => {
    const column = KNOWN_HEADERS.get(normaliseHeader(cell));
    if (column && at[column] === undefined) at[column] = index;
  });
  if (Object.keys(at).length > 0) return { header: true, at };
  return { header: false, at: { paymentToken: 0, amount: 1, reference: 2 } };
}

/** A column's letter as a spreadsheet shows it: 0 → A, 25 → Z, 26 → AA. */
function columnLetter(index: number): string {
  let letter = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letter = String.fromCharCode(65 + ((n - 1) % 26)) + letter;
  return letter;
}

const DAY_MONTH_YEAR = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(.*)$/;
const YEAR_MONTH_DAY = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(.*)$/;
/** What may follow a date: nothing, or a time of day (which the merchant's day does not need). */
const TIME_OF_DAY = /^(?:[t\s,]+\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:am|pm|ص|م)?)?$/i;
const WITH_ZONE = /^\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})$/i;

/**
 * Whether a date column writes the day before the month (`04/03/2025` is 4 March), as Libya does: yes, unless one of
 * its dates only makes sense month first (`03/25/2025`).
 */
function dayComesFirst(values: string[]): boolean {
  for (const value of values) {
    const match = DAY_MONTH_YEAR.exec(westernDigits(value));
    if (match && Number(match[1]) <= 12 && Number(match[2]) > 12) return false;
  }
  return true;
}

/**
 * The merchant's day (lib/time.ts) of a date in the list. A time with a zone (`…Z`, `…+01:00`) is converted;
 * any other date is taken as the merchant's own.
 * @returns `YYYY-MM-DD`, or `null` when it is not a date.
 */
export function parseListedDay(value: string, dayFirst = true): string | null {
  const text = westernDigits(value).trim();
  if (WITH_ZONE.test(text)) {
    const time = Date.parse(text.replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
    return Number.isNaN(time) ? null : tripoliDay(new Date(time));
  }
  const ymd = YEAR_MONTH_DAY.exec(text);
  const dmy = DAY_MONTH_YEAR.exec(text);
  const [year, month, day, rest] = ymd
    ? [ymd[1], ymd[2], ymd[3], ymd[4]]
    : dmy
      ? dayFirst
        ? [dmy[3], dmy[2], dmy[1], dmy[4]]
        : [dmy[3], dmy[1], dmy[2], dmy[4]]
      : [];
  if (!year || !TIME_OF_DAY.test(rest ?? "")) return null;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) return null;
  return date.toISOString().slice(0, 10);
}
