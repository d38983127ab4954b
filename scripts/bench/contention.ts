// The bench's two conditions. "quiet": the machine as it is. "contended": the CPU deliberately scarce — one busy loop
// (`node -e "for(;;){}"`) per core, started before the condition's measurements and stopped after them, so every
// process of the run (the shop, the baseline app, the emulator, Chromium, the bench) gets about half the CPU it would
// get quietly: a low-end phone, or a server that is doing other work.
//
// What makes the contention representative rather than token:
//  - one loop per core, so no core is left free for the measured processes to escape to;
//  - the servers' priority: the loops inherit the bench's nice value, as the servers do, and are neither niced down
//    (at nice 19 a loop yields almost all its CPU to anything at nice 0, contending with nothing) nor up;
//  - a process group and session of their own (scripts/servers.ts's startProcess, like every server): with the
//    kernel's autogroup scheduling (on by default on desktop Linux) each session is scheduled as one group, so each
//    loop weighs as much as one server or the browser — in the bench's own session they would share its group's
//    weight instead;
//  - pure CPU: no memory, no I/O, nothing that could fail or slow the measured processes another way.
// The loops are stopped with the condition, and by stopAll()/killAllNow() on Ctrl-C or exit like any other process.
import { readFileSync } from "node:fs";
import os from "node:os";
import { startProcess } from "../servers";

export const CONDITIONS = ["quiet", "contended"] as const;
export type Condition = (typeof CONDITIONS)[number];

export interface Contention {
  /** Busy loops (one per core). */
  loops: number;
  /** Their nice value, and the bench's (which the servers inherit too). */
  nice: number;
  benchNice: number;
  /** Whether the kernel schedules each session as a group (Linux's autogroup); undefined when it does not say. */
  autogroup?: boolean;
  /** The share of one core each loop got on average while it ran (from /proc; undefined elsewhere). */
  cpuShare?: number;
  seconds: number;
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; undefined where there is no /proc. */
function cpuSeconds(pid: number): number | undefined {
  try {
    // Fields after the command's closing parenthesis: state is the 3rd field, utime the 14th, stime the 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").pop()!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

function autogroupEnabled(): boolean | undefined {
  try {
    return readFileSync("/proc/sys/kernel/sched_autogroup_enabled", "utf8").trim() === "1";
  } catch {
    return undefined;
  }
}

/** Starts one busy loop per core; `stop()` ends them and says what they took. */
export async function startContention(loops = os.availableParallelism()): Promise<{ stop(): Promise<Contention> }> {
  const started = Date.now();
  const processes = Array.from({ length: loops }, (_, index) =>
    startProcess(`busy loop ${index + 1}`, process.execPath, ["-e", "for(;;){}"]),
  );
  // Let them reach the loop before the first measurement.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const nice = os.getPriority(processes[0]!.child.pid!);
  return {
    async stop() {
      const used = processes.map((loop) => cpuSeconds(loop.child.pid!));
      const seconds = (Date.now() - started) / 1000;
      await Promise.all(processes.map((loop) => loop.stop(1_000)));
      const known = used.filter((value): value is number => value !== undefined);
      return {
        loops,
        nice,
        benchNice: os.getPriority(),
        autogroup: autogroupEnabled(),
        cpuShare: known.length ? known.reduce((a, b) => a + b, 0) / known.length / seconds : undefined,
        seconds,
      };
    },
  };
}
