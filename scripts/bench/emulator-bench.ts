// The emulator's own benchmark (scripts/bench/emulator.ts): token + create pairs per second in-process, and memory
// after a forced GC, with the emulator clock moving so that expired records are purged. Run in a node of its own.
import { runToCompletion } from "../servers";
import type { BenchResult } from "./emulator";

const SCRIPT = "scripts/bench/emulator.ts";

/** Runs `node --expose-gc --import tsx scripts/bench/emulator.ts --pairs <pairs> --json` and returns its result. */
export async function emulatorBench({ pairs }: { pairs: number }): Promise<BenchResult> {
  const { status, stdout, stderr } = await runToCompletion(process.execPath, [
    "--expose-gc",
    "--import",
    "tsx",
    SCRIPT,
    "--pairs",
    String(pairs),
    "--json",
  ]);
  if (status !== 0)
    throw new Error(`${SCRIPT} exited with ${status}: ${stderr.trim().split("\n").slice(-3).join(" ")}`);
  const line = stdout
    .trim()
    .split("\n")
    .filter((text) => text.startsWith("{"))
    .pop();
  if (!line) throw new Error(`${SCRIPT} printed no JSON: ${stdout.slice(0, 200)}`);
  return JSON.parse(line) as BenchResult;
}
