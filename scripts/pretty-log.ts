// `npm run dev` shows the shop's log lines (lib/log.ts: pino, one JSON object a line) as a person reads them, with
// pino's own pretty printer (pino-pretty); every other line Next.js prints passes through untouched. Development
// only: production (`npm start`) keeps writing the JSON lines a log collector reads. It works on the dev server's
// output rather than as a pino transport inside lib/log.ts: transports run in worker threads, which Next.js's
// bundling of the shop's modules does not carry.
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { prettyFactory } from "pino-pretty";

/** Whether `line` is one of pino's: a JSON object with a numeric `level` and `time`. */
export function isLogLine(line: string): boolean {
  if (!line.startsWith("{")) return false;
  try {
    const value = JSON.parse(line) as { level?: unknown; time?: unknown } | null;
    return typeof value?.level === "number" && typeof value.time === "number";
  } catch {
    return false;
  }
}

/**
 * What to show for one line of the dev server's output: a log line pretty-printed (the time, the level, the
 * `event` and message on one line, the other fields below it), any other line as it was.
 */
export function prettifier({ colorize }: { colorize: boolean }): (line: string) => string {
  const pretty = prettyFactory({
    colorize,
    translateTime: "SYS:HH:MM:ss.l",
    // Every line of the shop names its `event` (lib/log.ts): it heads the line instead of trailing as a field.
    ignore: "event",
    messageFormat: (log, messageKey) => [log.event, log[messageKey]].filter(Boolean).join(": "),
  });
  return (line) => (isLogLine(line) ? pretty(line) : `${line}\n`);
}

/** Copies `from` to `to` line by line through a {@link prettifier}. */
export function pipePretty(from: Readable, to: Writable, { colorize }: { colorize: boolean }): void {
  const show = prettifier({ colorize });
  createInterface({ input: from, crlfDelay: Infinity }).on("line", (line) => to.write(show(line)));
}
