/** Types of testing/summary.mjs (plain JavaScript, because testing/test.mjs runs on Node without a compiler). */
export interface Row {
  name: string;
  passed: number;
  failed: number;
}
export function tally(name: string, ok: boolean, groups: Row[] | undefined): Row[];
export function verdict(rows: Row[], seconds: number): { line: string; exitCode: 0 | 1 };
