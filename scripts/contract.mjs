// `npm run test:contract`: runs lib/payments.contract.ts against PAYMENT_API_BASE_URL (from .env.local or the
// environment). With nothing set it targets the emulator, starting it for the run if it is not already up.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

if (existsSync(".env.local")) process.loadEnvFile(".env.local");
const base = process.env.PAYMENT_API_BASE_URL ?? "http://127.0.0.1:4010/pay/sandbox/api/v1";
const origin = new URL(base).origin;
const up = () =>
  fetch(`${origin}/__emulator/health`).then(
    (r) => r.ok,
    () => false,
  );

let emulator;
if (!process.env.PAYMENT_API_BASE_URL && !(await up())) {
  emulator = spawn("npx", ["tsx", "emulator/server.ts"], {
    stdio: "ignore",
    env: { ...process.env, EMULATOR_QUIET: "1" },
    detached: true,
  });
  for (let i = 0; i < 100 && !(await up()); i++) await new Promise((r) => setTimeout(r, 100));
}
console.log(`Contract suite against ${base}`);
const { status } = spawnSync("npx", ["vitest", "run", "--config", "vitest.contract.config.ts"], { stdio: "inherit" });
if (emulator) process.kill(-emulator.pid, "SIGTERM");
console.log(`Tested: ${base}`);
process.exit(status ?? 1);
