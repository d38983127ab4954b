import "server-only";
import { createHash } from "node:crypto";
import { and, asc, desc, eq, getTableColumns, inArray, isNull, sql } from "drizzle-orm";
import type { Messages } from "next-intl";
import { csvStream, neutraliseFormula, parseCsv, readUpload, type UploadProblem } from "../csv";
import type { Db, DbOrTx } from "../db/client";
import { catalogEvents, catalogImports, products, type CatalogImportRow, type ProductRow } from "../db/schema";
import { idPattern, newId } from "../ids";
import { notArchived } from "./deletion";
import { heldStock } from "./stock";
import { PRODUCT_FIELDS, productInputSchema, typedFields, type ProductInput, type ProductProblem } from "./editing";

/**
 * The catalogue as a spreadsheet: exported as CSV, and imported from one in two steps — a dry run that shows what
 * would change and every problem by row and column, then "Apply", which applies the same stored file in one
 * transaction (all of it, or nothing).
 *
 * - One row per product, one column per field of {@link productInputSchema} (the product form's one schema), named
 *   as it names them: {@link CSV_COLUMNS}. A header row is required; its names are compared ignoring case, spaces
 *   and underscores; other columns are ignored (and listed as such). Cells are separated by `,` (or `;`, tab or `|`,
 *   as spreadsheets in some locales save). Prices like `12.50`, `12,50` or in Arabic digits; `stock` empty means
 *   "not counted"; `visible` is `true`/`false` (or yes/no, 1/0, نعم/لا).
 * - Rows are matched to products by `slug`: a new slug creates a product, a known one updates it. Products absent
 *   from the file are left alone (an import never deletes), and a column absent from the file leaves that field as
 *   it is (a file of `slug,price` changes prices only). The slug of an archived product (lib/catalog/deletion.ts) is
 *   refused with a message: it is restored in the back office first, or the row takes another slug.
 * - Stock: a new product starts with the file's stock. For an existing product the file's stock is the new count on
 *   hand; a difference is recorded as a stock adjustment with the reason "CSV import" (as the back office's own
 *   adjustment would be). Because a sale between the export and the import would otherwise be undone, the dry run
 *   shows each stock change with its before and after, and "Apply" refuses when anything changed since the dry run.
 * - The export writes what an import reads back unchanged (UTF-8 with a byte order mark so that Excel shows Arabic;
 *   cells that a spreadsheet would run as a formula are kept text with a leading apostrophe, which the import removes
 *   again): export, then import, changes nothing.
 */

/** The columns of the catalogue's CSV, in the export's order: the fields of {@link productInputSchema}. */
export const CSV_COLUMNS = PRODUCT_FIELDS;
type Column = (typeof CSV_COLUMNS)[number];

/** The most products one file may hold: the shop's own export of a catalogue this size imports back. */
export const MAX_CATALOG_CSV_ROWS = 10_000;
/**
 * The largest file the import reads, 4 MB: {@link MAX_CATALOG_CSV_ROWS} products of about 400 bytes each, more than a
 * product with two-sentence descriptions in both languages takes in the export (10,000 such products: 3.3 MB). The
 * form around it stays under Next.js's limit for server actions (lib/form-limit.ts, `MAX_CATALOG_FORM_BYTES`;
 * next.config.mjs).
 */
export const MAX_CATALOG_CSV_BYTES = 4 * 1024 * 1024;

/** The reason of the stock adjustment an import records for an existing product. */
export const IMPORT_STOCK_REASON = "CSV import";

/** What can be wrong with a file or a cell that is not a product's field's problem: a key of `admin.products.csv.problems`. */
type CsvProblem = keyof Messages["admin"]["products"]["csv"]["problems"];

/**
 * A problem of an import. `row` as a spreadsheet numbers it (the header is row 1), `column` a name of
 * {@link CSV_COLUMNS}; either is null for a problem of the whole file. `problem` is a key of
 * `admin.products.problems` (`scope: "product"`, the form's own messages) or of `admin.products.csv.problems`.
 */
export type ImportError =
  | { row: number | null; column: Column | null; scope: "product"; problem: ProductProblem }
  | { row: number | null; column: Column | null; scope: "csv"; problem: CsvProblem; held?: number };

/** A field's value as the dry run shows it (text; the price as `12.50`, stock `""` when not counted). */
type Shown = string;

/** What an import does with one row of the file. */
interface PlannedRow {
  row: number;
  slug: string;
  action: "create" | "update" | "unchanged";
  /** For an update, each changed field: `[before, after]` as shown. */
  changes: Partial<Record<Column, [Shown, Shown]>>;
  /** The product's fields after the import. */
  input: ProductInput;
  /** The product as it was (update, unchanged). */
  before?: ProductRow;
}

/** A file checked against the catalogue: what it would do, and what is wrong with it (then nothing is applied). */
export interface ImportPlan {
  rows: PlannedRow[];
  errors: ImportError[];
  /** Header names of the file's columns that are not the catalogue's (ignored). */
  ignoredColumns: string[];
  counts: { create: number; update: number; unchanged: number };
  /**
   * SHA-256 of the plan (every row's action and changes, before values included): "Apply" carries the hash of the
   * plan the admin saw, and refuses when the plan computed under its transaction differs.
   */
  hash: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Export

/**
 * A cell as the CSV writes it: a formula to a spreadsheet (`=`, `+`, `-`, `@`, tab, CR first) gets a leading
 * apostrophe (lib/csv.ts, `neutraliseFormula`), and so does text that starts with an apostrophe itself, so that
 * the import's {@link unguardCell} gives back exactly what was exported.
 */
function guardCell(value: string): string {
  return value.startsWith("'") ? `'${value}` : neutraliseFormula(value);
}

/** A cell as the import reads it: one apostrophe before a formula character (or another apostrophe) is taken off. */
function unguardCell(value: string): string {
  return /^'[=+\-@\t\r']/.test(value) ? value.slice(1) : value;
}

/** Products read per query of the export: its memory is one batch's, whatever the catalogue's size. */
const EXPORT_BATCH = 250;

/**
 * The whole catalogue, hidden products included and archived ones not, as a CSV stream written as it is read (lib/csv.ts, `csvStream`:
 * every cell quoted): a byte order mark, the header ({@link CSV_COLUMNS}), then one row per product in the
 * storefront's order (sort order, then id), lines ending CRLF as spreadsheets save them.
 * @param done called once when the stream ends (read whole, failed, or cancelled by the reader).
 */
export function exportCatalogCsv(db: DbOrTx, done?: (error?: Error) => void): ReadableStream<Uint8Array> {
  return csvStream(CSV_COLUMNS, catalogRows(db), { windows: true, guard: guardCell, done });
}

/** The catalogue's rows, read by keyset on (sort order, id) in batches, one query at a time. */
async function* catalogRows(db: DbOrTx): AsyncGenerator<string[][]> {
  let edge: { sortOrder: number; id: number } | undefined;
  for (;;) {
    const batch = await db
      .select()
      .from(products)
      .where(and(notArchived, edge && sql`(${products.sortOrder}, ${products.id}) > (${edge.sortOrder}, ${edge.id})`))
      .orderBy(asc(products.sortOrder), asc(products.id))
      .limit(EXPORT_BATCH);
    if (batch.length === 0) return;
    yield batch.map((product) => {
      const shown = typedFields(product);
      return CSV_COLUMNS.map((column) => shown[column]);
    });
    const last = batch.at(-1)!;
    edge = { sortOrder: last.sortOrder, id: last.id };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Reading a file

/** A header as compared with {@link CSV_COLUMNS}: lower case, without spaces, underscores or hyphens. */
const normaliseHeader = (value: string) => value.replace(/[\s_\-\u200e\u200f]/g, "").toLowerCase();
const COLUMN_BY_HEADER = new Map<string, Column>(CSV_COLUMNS.map((column) => [normaliseHeader(column), column]));

/** A row of the file: its number (header = 1) and the cells of the catalogue's columns it has. */
interface FileRow {
  row: number;
  cells: Partial<Record<Column, string>>;
}

/**
 * Reads the CSV's rows (no database).
 * @returns its rows, the ignored columns, and the problems of the file itself (then no rows).
 */
function readCatalogCsv(text: string): { rows: FileRow[]; ignoredColumns: string[]; errors: ImportError[] } {
  const fail = (problem: CsvProblem, row: number | null = null, column: Column | null = null) => ({
    rows: [],
    ignoredColumns: [],
    errors: [{ row, column, scope: "csv" as const, problem }],
  });
  const body = text.replace(/^\uFEFF/, "");
  if (!body.trim()) return fail("empty");
  const parsed = parseCsv(body, MAX_CATALOG_CSV_ROWS);
  if (!parsed.ok) return fail("unreadable", parsed.row);
  const records = parsed.records;
  const header = records[0] ?? [];
  const at = new Map<Column, number>();
  const ignoredColumns: string[] = [];
  const errors: ImportError[] = [];
  header.forEach((name, index) => {
    const column = COLUMN_BY_HEADER.get(normaliseHeader(name));
    if (!column) {
      if (name.trim()) ignoredColumns.push(name.trim());
    } else if (at.has(column)) errors.push({ row: 1, column, scope: "csv", problem: "duplicateColumn" });
    else at.set(column, index);
  });
  if (!at.has("slug")) errors.push({ row: 1, column: "slug", scope: "csv", problem: "missingSlugColumn" });
  if (errors.length > 0) return { rows: [], ignoredColumns, errors };
  const rows = records
    .slice(1)
    .map((cells, index) => ({ row: index + 2, raw: cells }))
    .filter(({ raw }) => raw.some((cell) => cell.trim() !== ""))
    .map(({ row, raw }) => ({
      row,
      cells: Object.fromEntries([...at].map(([column, index]) => [column, unguardCell(raw[index] ?? "")])),
    }));
  if (rows.length === 0) return fail("empty");
  if (rows.length > MAX_CATALOG_CSV_ROWS) return fail("tooManyRows");
  return { rows, ignoredColumns, errors: [] };
}

const YES = new Set(["true", "yes", "y", "1", "visible", "shown", "نعم", "ظاهر", "صح"]);
const NO = new Set(["false", "no", "n", "0", "hidden", "لا", "مخفي", "خطأ"]);

// ---------------------------------------------------------------------------------------------------------------
// The plan

/** The stored product's columns compared with an import's fields, as shown: `{ column: [before, after] }`. */
function changesOf(before: ProductRow, after: ProductInput): PlannedRow["changes"] {
  const was = typedFields(before);
  const now = typedFields({ ...before, ...after, priceMinor: after.price });
  const changed: PlannedRow["changes"] = {};
  for (const column of CSV_COLUMNS) if (was[column] !== now[column]) changed[column] = [was[column], now[column]];
  return changed;
}

/**
 * Checks a CSV against the catalogue as `db` has it: what each row would do, and every problem by row and column.
 * Used by the dry run (a page: reads only) and, under its transaction with the products locked, by
 * {@link applyCatalogImport}.
 * @param lock lock the rows of the file's existing products (`FOR UPDATE`; inside a transaction only).
 */
export async function planCatalogImport(db: DbOrTx, text: string, { lock = false } = {}): Promise<ImportPlan> {
  const file = readCatalogCsv(text);
  const errors: ImportError[] = [...file.errors];
  const rows: PlannedRow[] = [];
  const slugs = new Map<string, number>();
  const parsedSlugs = file.rows.map(({ cells }) => productInputSchema.shape.slug.safeParse(cells.slug ?? ""));
  const known = parsedSlugs.flatMap((parsed) => (parsed.success ? [parsed.data] : []));
  // One query, in id order: the same order as the checkout's locks (lib/catalog/stock.ts), so they never deadlock.
  const query = db
    .select()
    .from(products)
    .where(inArray(products.slug, known.length ? known : [""]))
    .orderBy(asc(products.id));
  // Each branch awaited on its own: a conditional of the two query builders makes TypeScript compare their whole types.
  const found = lock ? await query.for("update") : await query;
  const existing = new Map(found.map((product) => [product.slug, product]));

  file.rows.forEach(({ row, cells }, index) => {
    const slug = parsedSlugs[index]!;
    const rowErrors: ImportError[] = [];
    if (!slug.success) {
      rowErrors.push({ row, column: "slug", scope: "product", problem: "slugInvalid" });
    } else if (slugs.has(slug.data)) {
      rowErrors.push({ row, column: "slug", scope: "csv", problem: "duplicateSlug" });
    } else slugs.set(slug.data, row);
    const before = slug.success ? existing.get(slug.data) : undefined;
    // An archived product's slug is still taken (its orders name it): the row is refused until it is restored.
    if (before?.archivedAt) rowErrors.push({ row, column: "slug", scope: "csv", problem: "archivedSlug" });

    // The product as it is (for an update) with the file's cells over it. An empty cell means what an empty field
    // of the form means: visible, physical, sort order 0, stock not counted, no description.
    const input: Record<string, unknown> = before ? { ...typedFields(before), visible: before.visible } : {};
    for (const [column, value] of Object.entries(cells) as [Column, string][]) {
      const word = value.trim().toLowerCase();
      if (column === "visible") {
        if (word === "" || YES.has(word)) input.visible = true;
        else if (NO.has(word)) input.visible = false;
        else rowErrors.push({ row, column, scope: "csv", problem: "visibleInvalid" });
      } else if (column === "kind") input.kind = word || "physical";
      else input[column] = value;
    }
    const parsed = productInputSchema.safeParse(input);
    if (!parsed.success) {
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const column = issue.path[0] as Column;
        // The slug's own problem is named once, above; one problem per cell, the first.
        if (column === "slug" || column === "visible" || seen.has(column)) continue;
        seen.add(column);
        rowErrors.push(
          column === "kind"
            ? { row, column, scope: "csv", problem: "kindInvalid" }
            : { row, column, scope: "product", problem: issue.message as ProductProblem },
        );
      }
    }
    rowErrors.sort((a, b) => CSV_COLUMNS.indexOf(a.column!) - CSV_COLUMNS.indexOf(b.column!));
    errors.push(...rowErrors);
    if (rowErrors.length > 0 || !parsed.success) return;
    if (!before) {
      rows.push({ row, slug: parsed.data.slug, action: "create", changes: {}, input: parsed.data });
      return;
    }
    const changes = changesOf(before, parsed.data);
    const action = Object.keys(changes).length > 0 ? "update" : "unchanged";
    rows.push({ row, slug: parsed.data.slug, action, changes, input: parsed.data, before });
  });

  // A count lowered below the units open checkouts hold is refused, as the stock form refuses it: those customers
  // may still pay. (Under "Apply" the products are locked first, as the checkout's claim locks them.)
  const lowered = rows.filter(
    ({ input, before }) => before && input.stock !== null && (before.stock === null || input.stock < before.stock),
  );
  const held = await heldStock(
    db,
    lowered.map(({ before }) => before!.id),
  );
  for (const planned of lowered) {
    const units = held.get(planned.before!.id)?.units ?? 0;
    if (units === 0 || planned.input.stock! >= units) continue;
    errors.push({ row: planned.row, column: "stock", scope: "csv", problem: "stockBelowHeld", held: units });
    rows.splice(rows.indexOf(planned), 1);
  }
  errors.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));

  const counts = { create: 0, update: 0, unchanged: 0 };
  for (const { action } of rows) counts[action] += 1;
  const hash = createHash("sha256")
    .update(
      JSON.stringify({
        rows: rows.map(({ row, slug, action, changes, input }) => [row, slug, action, changes, input]),
        errors,
      }),
    )
    .digest("hex");
  return { rows, errors, ignoredColumns: file.ignoredColumns, counts, hash };
}

// ---------------------------------------------------------------------------------------------------------------
// Stored files and applying them

/** An import's id in URLs: `imp_` + 16 base-32 characters. */
export const IMPORT_ID = idPattern("imp");

/**
 * Stores an uploaded catalogue CSV for its dry run, even when it has problems (so that the page can name them).
 * Read like the reconciliation's lists (lib/csv.ts, `readUpload`: UTF-8 with or without a byte order mark, UTF-16,
 * else Windows-1256).
 * @param input.by the admin's e-mail. @returns the import's id, or why it was not stored.
 */
export async function storeCatalogImport(
  db: Db,
  input: { file?: { name: string; bytes: Uint8Array }; by: string },
): Promise<{ id: string } | { error: UploadProblem }> {
  const upload = readUpload({ file: input.file }, MAX_CATALOG_CSV_BYTES);
  if ("error" in upload) return upload;
  const id = newId("imp");
  await db.insert(catalogImports).values({ id, createdBy: input.by, ...upload });
  return { id };
}

/** A stored import by its id; `undefined` for an unknown one. */
export async function findCatalogImport(db: DbOrTx, id: string): Promise<CatalogImportRow | undefined> {
  if (!IMPORT_ID.test(id)) return undefined;
  const [row] = await db.select().from(catalogImports).where(eq(catalogImports.id, id));
  return row;
}

/** The imports uploaded lately, newest first, without their content. */
export async function recentCatalogImports(db: DbOrTx, limit = 10): Promise<Omit<CatalogImportRow, "content">[]> {
  const { content, ...listed } = getTableColumns(catalogImports);
  return db.select(listed).from(catalogImports).orderBy(desc(catalogImports.createdAt)).limit(limit);
}

/** What "Apply" did. Anything but `applied` changed nothing. */
export type ApplyOutcome =
  | { outcome: "applied"; created: number; updated: number; unchanged: number }
  /** No such import. */
  | { outcome: "not_found" }
  /** It was applied already (a second click, another tab). */
  | { outcome: "already_applied" }
  /** The file has problems: the dry run lists them. */
  | { outcome: "invalid" }
  /** The catalogue changed since the dry run the admin saw (or another import took a new slug meanwhile). */
  | { outcome: "stale" };

/** The product's columns for an {@link ProductInput}. */
const columnsOf = ({ price, ...rest }: ProductInput) => ({ ...rest, priceMinor: price });

/** Ends an import's transaction (rolled back) with an outcome that changed nothing. */
class ImportRefused extends Error {
  constructor(readonly outcome: "invalid" | "stale") {
    super(`import refused: ${outcome}`);
  }
}

/**
 * Applies a stored import, in ONE transaction: the plan is computed again under it with the file's existing products
 * locked, and applied only when it has no problems and is the very plan the admin saw (`planHash`); any failure rolls
 * everything back. Each product gets its audit rows, as the back office's own edits would: `created` (its fields),
 * `edited` (or `hidden`/`shown`; each changed field before and after), `stock_adjusted` (before, after, reason
 * {@link IMPORT_STOCK_REASON}); each naming the import and its row. One `imported` row sums it up. The import is
 * marked applied in the same transaction, so it applies at most once.
 * @param by the admin's e-mail.
 * @throws the database's errors but a slug taken meanwhile (`stale`).
 */
export async function applyCatalogImport(db: Db, id: string, planHash: string, by: string): Promise<ApplyOutcome> {
  if (!IMPORT_ID.test(id)) return { outcome: "not_found" };
  try {
    return await db.transaction(async (tx) => {
      // Claims the import: a second "Apply" waits here, then finds it applied.
      const [claimed] = await tx
        .update(catalogImports)
        .set({ appliedAt: new Date(), appliedBy: by })
        .where(and(eq(catalogImports.id, id), isNull(catalogImports.appliedAt)))
        .returning({ content: catalogImports.content });
      if (!claimed) return { outcome: (await findCatalogImport(tx, id)) ? "already_applied" : "not_found" };
      const plan = await planCatalogImport(tx, claimed.content, { lock: true });
      if (plan.errors.length > 0) throw new ImportRefused("invalid");
      if (plan.hash !== planHash) throw new ImportRefused("stale");

      const now = new Date();
      const events: (typeof catalogEvents.$inferInsert)[] = [];
      const creates = plan.rows.filter((row) => row.action === "create");
      for (let start = 0; start < creates.length; start += 500) {
        const batch = creates.slice(start, start + 500);
        const created = await tx
          .insert(products)
          .values(batch.map((row) => columnsOf(row.input)))
          .returning({ id: products.id, slug: products.slug });
        const idOf = new Map(created.map((product) => [product.slug, product.id]));
        for (const row of batch)
          events.push({
            productId: idOf.get(row.slug)!,
            type: "created",
            by,
            data: { ...columnsOf(row.input), import: id, row: row.row },
          });
      }
      for (const row of plan.rows) {
        if (row.action !== "update" || !row.before) continue;
        const before = row.before;
        const after = columnsOf(row.input);
        await tx
          .update(products)
          .set({ ...after, updatedAt: now })
          .where(eq(products.id, before.id));
        // Audited as lib/catalog/editing.ts audits the form's edits and stock adjustments.
        const changes: Record<string, [unknown, unknown]> = {};
        for (const [field, value] of Object.entries(after))
          if (field !== "stock" && before[field as keyof ProductRow] !== value)
            changes[field] = [before[field as keyof ProductRow], value];
        const fields = Object.keys(changes);
        if (fields.length > 0) {
          const type = fields.length === 1 && fields[0] === "visible" ? (after.visible ? "shown" : "hidden") : "edited";
          events.push({ productId: before.id, type, by, data: { changes, import: id, row: row.row } });
        }
        if (before.stock !== after.stock)
          events.push({
            productId: before.id,
            type: "stock_adjusted",
            by,
            data: { before: before.stock, after: after.stock, reason: IMPORT_STOCK_REASON, import: id, row: row.row },
          });
      }
      const { create, update, unchanged } = plan.counts;
      events.push({ productId: null, type: "imported", by, data: { import: id, create, update, unchanged } });
      for (let start = 0; start < events.length; start += 1_000)
        await tx.insert(catalogEvents).values(events.slice(start, start + 1_000));
      return { outcome: "applied" as const, created: create, updated: update, unchanged };
    });
  } catch (error) {
    if (error instanceof ImportRefused) return { outcome: error.outcome };
    // Another import or the form took one of the file's new slugs after this plan was made.
    if ((error as { cause?: { code?: string } })?.cause?.code === "23505") return { outcome: "stale" };
    throw error;
  }
}
