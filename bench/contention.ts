// The bench's two conditions. "quiet": the machine as it is. "contended": one busy loop (`node -e "for(;;){}"`) per
// core, so every process of the run gets about half the CPU it gets quietly: a low-end phone, or a busy server.
// The loops run at the servers' priority (they inherit the bench's nice value) in a process group and session of
// their own like every server (scripts/servers.ts), so with Linux's autogroup scheduling each weighs as much as one
// server or the browser; niced down or in the bench's own session they would contend with almost nothing.
import { readFileSync } from "node:fs";
import os from "node:os";
import { startProcess } from "../scripts/servers";

export const CONDITIONS = ["quiet", "contended"] as const;
export type Condition = (typeof CONDITIONS)[number];

/** CPU seconds (user + system) a process has used, from /proc; undefined where there is no /proc. */
function cpuSeconds(pid: number): number | undefined {
  try {
    // The fields after the command's closing parenthesis: utime is the 14th field, stime the 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").pop()!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/**
 * Starts one busy loop per core. `stop()` ends them and resolves to the share of one core (0–1) each took on
 * average, or undefined where /proc cannot say.
 */
export async function startContention(): Promise<{ stop(): Promise<number | undefined> }> {
  const started = Date.now();
  const loops = Array.from({ length: os.availableParallelism() }, (_, index) =>
    startProcess(`busy loop ${index + 1}`, process.execPath, ["-e", "for(;;){}"]),
  );
  // Let them reach the loop before the first measurement.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return {
    async stop() {
      const used = loops.map((loop) => cpuSeconds(loop.child.pid!));
      const seconds = (Date.now() - started) / 1000;
      await Promise.all(loops.map((loop) => loop.stop(1_000)));
      if (used.some((value) => value === undefined)) return undefined;
      return (used as number[]).reduce((a, b) => a + b, 0) / used.length / seconds;
    },
  };
}
