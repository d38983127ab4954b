import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { isFormula, spreadsheetCells } from "../testing/spreadsheet";
import { csvStream, decodeCsvFile, detectDelimiter, neutraliseFormula, parseCsv } from "./csv";

describe("a CSV file's bytes", () => {
  const csv = "المبلغ,المرجع\n";
  it("are read as UTF-8 with or without a byte order mark, as UTF-16 with one, and as Windows-1256 otherwise", () => {
    const utf8 = new TextEncoder().encode(csv);
    expect(decodeCsvFile(utf8)).toBe(csv);
    expect(decodeCsvFile(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8]))).toBe(csv);
    const utf16 = Uint8Array.from([0xff, 0xfe, ...Buffer.from(csv, "utf16le")]);
    expect(decodeCsvFile(utf16)).toBe(csv);
    // "المبلغ" as Excel on Arabic Windows saves it.
    expect(decodeCsvFile(Uint8Array.from([0xc7, 0xe1, 0xe3, 0xc8, 0xe1, 0xdb]))).toBe("المبلغ");
  });

  it("are refused when they are not text (a spreadsheet's own format)", () => {
    expect(decodeCsvFile(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toBeNull();
  });
});

describe("reading a CSV", () => {
  it("takes the first line's most frequent delimiter, never a decimal comma in a quoted cell", () => {
    expect(detectDelimiter('token;amount\n"a";"103,75"')).toBe(";");
    expect(detectDelimiter("a\tb\tc,d")).toBe("\t");
    expect(detectDelimiter('"x,y,z";1')).toBe(";");
    expect(detectDelimiter("one column")).toBe(",");
  });

  it("keeps rows of uneven length and empty lines, so record numbers are row numbers", () => {
    expect(parseCsv("a;b\n\n1;2;3", 10)).toEqual({ ok: true, records: [["a", "b"], [""], ["1", "2", "3"]] });
  });

  it("reads one row more than the most it is asked for, so the caller can tell the file is too long", () => {
    const parsed = parseCsv("h\n1\n2\n3\n4\n5", 2);
    expect(parsed.ok && parsed.records.length).toBe(4);
  });
});

describe("a cell a spreadsheet would run as a formula", () => {
  it.each([
    ["=1+1", "'=1+1"],
    ["+218 91", "'+218 91"],
    ["-5", "'-5"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tTAB", "'\tTAB"],
    ["\rCR", "'\rCR"],
    ["Aisha", "Aisha"],
    ["103.75", "103.75"],
    ["", ""],
  ])("neutralises %j as %j", (value, expected) => {
    expect(neutraliseFormula(value)).toBe(expected);
  });
});

describe("a CSV download", () => {
  it("quotes every cell, so that no delimiter a spreadsheet splits on starts a formula inside one", async () => {
    const rows = [
      ["x;=1+2", "y,+1", "z\t-1", "w|@SUM(A1)", "v\n=1", ""],
      ['say "hi"', "=1", "", "", "", ""],
    ];
    const text = await new Response(csvStream(["a", "b", "c", "d", "e", "f"], toAsync([rows]))).text();
    for (const delimiter of [";", ",", "\t", "|"])
      expect(spreadsheetCells(text, delimiter).filter(isFormula)).toEqual([]);
    // Read with the delimiter it was written with, every cell is what it was, a formula kept text.
    expect(parse(text)).toEqual([["a", "b", "c", "d", "e", "f"], rows[0], ['say "hi"', "'=1", "", "", "", ""]]);
  });

  it("reads its batches only as fast as they are taken, and says when it ended", async () => {
    let read = 0;
    async function* many() {
      for (; read < 1_000; read++)
        yield Array.from({ length: 100 }, (_, row) => [`row ${read}.${row}`, "x".repeat(100)]);
    }
    let end: (error?: Error) => void = () => {};
    const ended = new Promise<Error | undefined>((resolve) => (end = resolve));
    const reader = csvStream(["n", "text"], many(), { done: (error) => end(error) }).getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(read).toBeLessThan(100);
    await reader.cancel();
    // Cancelled by its reader (the browser), it ends with the premature close that gives the export's slot back.
    expect(await ended).toBeInstanceOf(Error);
  });
});

async function* toAsync<T>(items: readonly T[]) {
  yield* items;
}
