import { finished, Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";

/**
 * Reading and writing the spreadsheets merchants exchange with the back office (the reconciliation's payment lists,
 * the catalogue's CSV, the orders export), the way Excel and LibreOffice save and open them in Libya.
 */

/**
 * Decodes an uploaded file's bytes: UTF-8 (with or without a byte order mark) or UTF-16 with one, as spreadsheets
 * save "CSV UTF-8" and "Unicode text"; anything that is not valid UTF-8 as Windows-1256, in which Excel on Arabic
 * Windows saves plain "CSV".
 * @returns the text without a byte order mark, or `null` when the bytes are not text (a NUL, as in a spreadsheet's
 *   own binary format).
 */
export function decodeCsvFile(bytes: Uint8Array): string | null {
  const bom = (...lead: number[]) => lead.every((byte, index) => bytes[index] === byte);
  const text = bom(0xff, 0xfe)
    ? new TextDecoder("utf-16le").decode(bytes)
    : bom(0xfe, 0xff)
      ? new TextDecoder("utf-16be").decode(bytes)
      : (decodeUtf8(bytes) ?? new TextDecoder("windows-1256").decode(bytes));
  return text.includes("\u0000") ? null : text.replace(/^\uFEFF/, "");
}

/** Why an upload cannot be stored: nothing in it, more than its page takes, or not text. */
export type UploadProblem = "empty" | "too_large" | "not_text";

/**
 * An admin's upload read for storing: the file when there is one with bytes in it (decoded by {@link decodeCsvFile}),
 * else the pasted text. The file's name is kept for display, without control characters and cut to 200 characters
 * (`null` for pasted text or a nameless file).
 * @param maxBytes the largest upload the page takes, in bytes (the file's, or the pasted text's in UTF-8).
 * @returns the text and the name, or why it cannot be stored.
 */
export function readUpload(
  input: { file?: { name: string; bytes: Uint8Array }; pasted?: string },
  maxBytes: number,
): { content: string; fileName: string | null } | { error: UploadProblem } {
  const file = input.file && input.file.bytes.byteLength > 0 ? input.file : undefined;
  const size = file ? file.bytes.byteLength : Buffer.byteLength(input.pasted ?? "");
  if (size > maxBytes) return { error: "too_large" };
  const content = file ? decodeCsvFile(file.bytes) : (input.pasted ?? "");
  if (content === null) return { error: "not_text" };
  if (!content.trim()) return { error: "empty" };
  return { content, fileName: file ? file.name.replace(/\p{Cc}/gu, "").slice(0, 200) || null : null };
}

/** A form's file field (`name`) as {@link readUpload} takes it; `undefined` when no file, or an empty one, was sent. */
export async function uploadedFile(
  form: FormData,
  name: string,
): Promise<{ name: string; bytes: Uint8Array } | undefined> {
  const upload = form.get(name);
  return upload instanceof File && upload.size > 0
    ? { name: upload.name, bytes: new Uint8Array(await upload.arrayBuffer()) }
    : undefined;
}

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The cell delimiter: whichever of `,` `;` tab `|` occurs most often outside quotes in the first line (a header, or a
 * first row). Decided here rather than by csv-parse's own guess, so that a decimal comma in an amount (`103,75`) can
 * never be taken for one in a file separated by semicolons, as spreadsheets in some locales save.
 */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted && ",;\t|".includes(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best = ",";
  for (const [char, count] of counts) if (count > (counts.get(best) ?? 0)) best = char;
  return best;
}

/** A CSV's records, or the spreadsheet row (1 = the first line) at which it could not be read. */
export type CsvRecords = { ok: true; records: string[][] } | { ok: false; row: number };

/**
 * Parses a CSV as people edit them: the {@link detectDelimiter} delimiter, rows of uneven length, a stray quote inside
 * a cell typed by hand (`=HYPERLINK("…")` unquoted) kept as text, empty lines kept (so record numbers are row
 * numbers). Reads at most `maxRows` rows after a header, plus one, so that the caller can tell a file that is too long.
 * @param body the text, without a byte order mark. @returns its records as strings, or where it broke; never throws
 *   for bad input.
 */
export function parseCsv(body: string, maxRows: number): CsvRecords {
  try {
    const records: string[][] = parse(body, {
      delimiter: detectDelimiter(body),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      to: maxRows + 2,
    });
    return { ok: true, records };
  } catch (error) {
    // The record being read when it broke: the rows before it were read whole.
    const row = error instanceof CsvError && typeof error.records === "number" ? error.records + 1 : 1;
    return { ok: false, row };
  }
}

/**
 * A spreadsheet cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to Excel and
 * LibreOffice; a leading apostrophe keeps it text (OWASP, "CSV injection"). Customer names and e-mails are typed by
 * anyone, so every cell a CSV export writes goes through this ({@link csvStream} does it). A formula character later
 * in a cell (`x;=1+2`) can only start a cell of its own if a spreadsheet splits the cell there, which quoting every
 * cell prevents whatever delimiter it splits on ({@link csvStream}).
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) && !DIGITS_AS_TEXT.test(value) ? `'${value}` : value;
}

/** What {@link keepAsText} writes: a formula that is one constant string of digits, harmless whoever wrote it. */
const DIGITS_AS_TEXT = /^="\+?\d+"$/;

/**
 * A cell of digits that must stay text in a spreadsheet — a phone number, whose leading `0` Excel and LibreOffice
 * drop (`0925551234` → 925551234) and whose `+218…` they read as a number — written `="0925551234"`: a formula whose
 * value is that string, which both show as the digits, as text (a leading apostrophe, the other well-known way,
 * shows in the cell when a CSV is opened). {@link neutraliseFormula} lets exactly this form through.
 * @param value digits, one `+` first allowed; anything else is returned as it is (and guarded as any cell).
 */
export function keepAsText(value: string): string {
  return /^\+?\d+$/.test(value) ? `="${value}"` : value;
}

/**
 * A CSV download written as it is read: `header`, then every batch of rows of `batches`, each cell through `guard` (by
 * default {@link neutraliseFormula}) and quoted — all of them, empty ones too, so that no `,` `;` tab `|` or line break
 * inside a cell can split it in a spreadsheet that opens the file with another delimiter than the `,` it was written
 * with (OWASP, "CSV injection": quote every cell, double the quotes inside, an apostrophe before a formula character).
 *
 * A batch is read only when the reader has taken the last (backpressure), so an export holds one batch in memory,
 * never the whole file; each batch is written as one chunk (a chunk per row made the server write to the socket
 * 100,000 times per export); and after each batch the stream rests as long as reading and writing it took, so that an
 * export takes at most half of the instance's time, however fast its reader, and the checkouts have the rest.
 * Every download starts with a UTF-8 byte order mark: without one, Excel reads the file in the computer's legacy code
 * page and Arabic comes out garbled.
 * @param options.windows lines end with CRLF. `done` is called once when the stream ends: read to the end, failed (with the error), or cancelled by
 *   the reader (with a premature-close error).
 */
export function csvStream(
  header: readonly string[],
  batches: AsyncIterable<readonly (readonly string[])[]>,
  options: { windows?: boolean; guard?: (cell: string) => string; done?: (error?: Error) => void } = {},
): ReadableStream<Uint8Array> {
  const guard = options.guard ?? neutraliseFormula;
  const write = (rows: readonly (readonly string[])[]) =>
    Buffer.from(
      stringify(rows as string[][], {
        record_delimiter: options.windows ? "windows" : "unix",
        quoted: true,
        quoted_empty: true,
      }),
    );
  async function* chunks() {
    yield Buffer.concat([Buffer.from("\uFEFF"), write([header])]);
    const iterator = batches[Symbol.asyncIterator]();
    for (;;) {
      const started = performance.now();
      const next = await iterator.next();
      if (next.done) return;
      const chunk = write(next.value.map((row) => row.map(guard)));
      const spent = performance.now() - started;
      yield chunk;
      await sleep(spent);
    }
  }
  const source = Readable.from(chunks());
  finished(source, (error) => options.done?.(error ?? undefined));
  return Readable.toWeb(source) as ReadableStream<Uint8Array>;
}
