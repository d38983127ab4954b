// The emulator's own benchmark (scripts/bench/emulator.ts): token + create pairs per second in-process, and memory
// after a forced GC, with the emulator clock moving so that expired records are purged.
import { runToCompletion } from "./servers.mjs";

const SCRIPT = "scripts/bench/emulator.ts";

/** Runs `scripts/bench/emulator.ts --pairs <pairs> --json` in its own node and returns its result object. */
export async function emulatorBench({ pairs }) {
  const { status, stdout, stderr } = await runToCompletion(process.execPath, [
    "--expose-gc",
    "--import",
    "tsx",
    SCRIPT,
    "--pairs",
    String(pairs),
    "--json",
  ]);
  if (status !== 0) throw new Error(`${SCRIPT} exited with ${status}: ${stderr.trim().split("\n").slice(-3).join(" ")}`);
  const line = stdout.trim().split("\n").filter((text) => text.startsWith("{")).pop();
  if (!line) throw new Error(`${SCRIPT} printed no JSON: ${stdout.slice(0, 200)}`);
  return JSON.parse(line);
}
