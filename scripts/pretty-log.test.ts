import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { isLogLine, pipePretty, prettifier } from "./pretty-log";

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ level: 30, time: Date.UTC(2026, 10, 25, 8), ...fields });

describe("the dev server's output, as `npm run dev` shows it", () => {
  it("tells pino's JSON lines from everything else", () => {
    expect(isLogLine(line({ event: "migrations_applied" }))).toBe(true);
    expect(isLogLine(" ✓ Ready in 1.2s")).toBe(false);
    expect(isLogLine("{ not json")).toBe(false);
    expect(isLogLine('{"some":"json","but":"no level"}')).toBe(false);
    expect(isLogLine('{"level":"info","time":1}')).toBe(false);
    expect(isLogLine("null")).toBe(false);
  });

  it("pretty-prints a log line: level, event and message on one line, the other fields below", () => {
    const show = prettifier({ colorize: false });
    const shown = show(
      line({ level: 40, event: "email_failed", msg: "will try again", attempt: 2, reason: "421 busy" }),
    );
    expect(shown).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: email_failed: will try again\n/);
    expect(shown).toContain('    attempt: 2\n    reason: "421 busy"\n');
    expect(shown).not.toContain("{");
    expect(show(line({ event: "migrations_applied" }))).toMatch(/INFO: migrations_applied\n$/);
  });

  it("leaves every other line untouched, JSON that is not pino's included", () => {
    const show = prettifier({ colorize: false });
    for (const other of ["   ▲ Next.js 16.4.5 (Turbopack)", "", '{"some":"json"}', "\u001b[32m✓\u001b[39m Compiled"])
      expect(show(other)).toBe(`${other}\n`);
  });

  it("pipes a stream through, line by line, lines split across chunks included", async () => {
    const from = new PassThrough();
    const to = new PassThrough();
    let shown = "";
    to.on("data", (chunk: Buffer) => (shown += chunk));
    pipePretty(from, to, { colorize: false });
    const log = line({ event: "order_paid" });
    from.write(`Starting...\n${log.slice(0, 10)}`);
    from.end(`${log.slice(10)}\nbye`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(shown).toMatch(/^Starting\.\.\.\n\[[\d:.]+\] INFO: order_paid\nbye\n$/);
  });
});
