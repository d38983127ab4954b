/**
 * The cells a spreadsheet shows when it opens `text` split on `delimiter` (whatever the file was written with), as
 * Excel and LibreOffice read quotes: a `"` opens or closes a quoted stretch (`""` inside one is a quote), and only a
 * delimiter or a line break outside quotes ends a cell. Every cell of every row, in order; what a CSV export must never
 * let start with a formula character.
 */
export function spreadsheetCells(text: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '"') {
      if (quoted && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else quoted = !quoted;
    } else if (!quoted && (char === delimiter || char === "\n" || char === "\r")) {
      cells.push(cell);
      cell = "";
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}

/** A formula to a spreadsheet: a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return. */
export const isFormula = (cell: string) => /^[=+\-@\t\r]/.test(cell);
