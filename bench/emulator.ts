/**
 * The emulator's own benchmark: N token + create pairs through `app.request` (no network), with the emulator clock
 * moving forward so that expired tokens and payments are purged, as on the real platform after 600 s.
 * Prints pairs/second and heap/RSS after a forced GC at a few checkpoints, to show memory stays flat.
 *
 *   node --expose-gc --import tsx bench/emulator.ts [--pairs 100000] [--concurrency 8] [--json]
 *   npx tsx bench/emulator.ts --pairs 20000   (works too; memory figures then come without a forced GC)
 *
 * `npm run bench` (bench/run.ts) runs it with `--json`, which prints the result of `runBench()`.
 */
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createEmulator } from "../emulator/app";

export interface BenchOptions {
  /** Token + create pairs to run. Default 100 000. */
  pairs?: number;
  /** Pairs in flight at once. Default 8. */
  concurrency?: number;
  /** Measure after this many pairs (the total is always measured). Default 10k, 50k, 100k. */
  checkpoints?: number[];
  /** Move the emulator clock every this many pairs… Default 1 000. */
  advanceEvery?: number;
  /** …by this many seconds. Default 120 (so ~10 000 payments are alive at any time). */
  advanceSeconds?: number;
  /** Called at each checkpoint (e.g. to print progress). */
  onCheckpoint?: (checkpoint: Checkpoint) => void;
}

export interface Checkpoint {
  pairs: number;
  /** Average since the start, measuring time excluded. */
  pairsPerSecond: number;
  heapUsedMB: number;
  rssMB: number;
  /** Records alive in the emulator at this point. */
  payments: number;
  tokens: number;
}

export interface BenchResult {
  pairs: number;
  concurrency: number;
  elapsedMs: number;
  pairsPerSecond: number;
  /** Whether memory was measured after a forced GC (`node --expose-gc`). */
  gcForced: boolean;
  clockAdvancedSeconds: number;
  checkpoints: Checkpoint[];
}

const SELF = "bench/emulator.ts";
const MB = 1024 * 1024;
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** Runs the benchmark and returns its figures. */
export async function runBench(options: BenchOptions = {}): Promise<BenchResult> {
  const pairs = options.pairs ?? 100_000;
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const advanceEvery = options.advanceEvery ?? 1_000;
  const advanceSeconds = options.advanceSeconds ?? 120;
  const checkpoints = new Set([...(options.checkpoints ?? [10_000, 50_000, 100_000]).filter((n) => n < pairs), pairs]);
  const gc = (globalThis as { gc?: () => void }).gc;

  const { app, state } = createEmulator({ rateLimit: 0, latencyMs: 0 });
  const post = (path: string, body: unknown, accessToken?: string) =>
    app.request(path, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
      },
      body: JSON.stringify(body),
    });

  const onePair = async (index: number) => {
    const token = await post("/pay/sandbox/api/v1/authentication/token", {
      client_id: "sandbox-demo-client-id",
      secret_id: "sandbox-demo-client-secret",
    });
    if (token.status !== 200) throw new Error(`token request ${index} answered ${token.status}`);
    const { data } = (await token.json()) as { data: { access_token: string } };
    const create = await post(
      "/pay/sandbox/api/v1/payment/create",
      {
        amount: "25.00",
        currency: "LYD",
        return_url: "http://127.0.0.1:3000/checkout/return",
        cancel_url: "http://127.0.0.1:3000/checkout/cancel",
        custom: `bench-${index}`,
      },
      data.access_token,
    );
    if (create.status !== 200) throw new Error(`create ${index} answered ${create.status}`);
    await create.arrayBuffer();
  };

  const results: Checkpoint[] = [];
  let busyMs = 0;
  let done = 0;
  let advanced = 0;
  while (done < pairs) {
    const batch = Math.min(concurrency, pairs - done, advanceEvery - (done % advanceEvery));
    const started = performance.now();
    await Promise.all(Array.from({ length: batch }, (_, i) => onePair(done + i)));
    busyMs += performance.now() - started;
    done += batch;

    if (done % advanceEvery === 0) {
      state.advanceClock(advanceSeconds);
      advanced += advanceSeconds;
    }
    if (checkpoints.has(done)) {
      gc?.();
      const memory = process.memoryUsage();
      const checkpoint: Checkpoint = {
        pairs: done,
        pairsPerSecond: Math.round(done / (busyMs / 1000)),
        heapUsedMB: round(memory.heapUsed / MB),
        rssMB: round(memory.rss / MB),
        payments: state.store.payments.size,
        tokens: state.store.tokens.size,
      };
      results.push(checkpoint);
      options.onCheckpoint?.(checkpoint);
    }
  }

  return {
    pairs,
    concurrency,
    elapsedMs: Math.round(busyMs),
    pairsPerSecond: Math.round(pairs / (busyMs / 1000)),
    gcForced: gc !== undefined,
    clockAdvancedSeconds: advanced,
    checkpoints: results,
  };
}

function argument(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

async function main(args: string[]) {
  const json = args.includes("--json");
  const pairs = Number(argument(args, "--pairs") ?? 100_000);
  const concurrency = Number(argument(args, "--concurrency") ?? 8);
  if (!Number.isInteger(pairs) || pairs < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
    console.error(`Usage: node --expose-gc --import tsx ${SELF} [--pairs 100000] [--concurrency 8] [--json]`);
    process.exit(2);
  }
  const gcForced = typeof (globalThis as { gc?: unknown }).gc === "function";
  if (!json) {
    console.log(
      `Emulator bench: ${pairs} token+create pairs in-process, ${concurrency} in flight, ` +
        "emulator clock +120 s every 1000 pairs",
    );
    if (!gcForced) {
      console.log(`(no forced GC: run \`node --expose-gc --import tsx ${SELF}\` for steady memory figures)`);
    }
  }
  const result = await runBench({
    pairs,
    concurrency,
    onCheckpoint: json
      ? undefined
      : (c) =>
          console.log(
            `${String(c.pairs).padStart(8)} pairs  ${String(c.pairsPerSecond).padStart(6)} pairs/s  ` +
              `heapUsed ${c.heapUsedMB.toFixed(1).padStart(6)} MB  rss ${c.rssMB.toFixed(1).padStart(6)} MB  ` +
              `alive: ${c.payments} payments, ${c.tokens} tokens`,
          ),
  });
  console.log(json ? JSON.stringify(result) : `Total: ${result.pairsPerSecond} pairs/s over ${result.elapsedMs} ms`);
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(realpathSync(invokedPath)).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
