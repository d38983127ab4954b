// `npm run test:contract`: runs lib/payments.contract.ts against PAYMENT_API_BASE_URL (from the environment, or
// .env.development.local). With nothing set it targets the emulator on 127.0.0.1:4010 (EMULATOR_PORT moves it),
// starting it for the run (scripts/servers.ts) if it is not already up.
import { spawnSync } from "node:child_process";
import { developmentPort, emulatorApiBase } from "../lib/env";
import { loadDevelopmentEnvFiles } from "../scripts/env-files";
import { startEmulator, stopAll } from "../scripts/servers";

loadDevelopmentEnvFiles(process.env.NODE_ENV === "production");
const emulatorPort = developmentPort("EMULATOR_PORT");
const base = process.env.PAYMENT_API_BASE_URL ?? emulatorApiBase(emulatorPort);
const up = () =>
  fetch(`${new URL(base).origin}/__emulator/health`).then(
    (response) => response.ok,
    () => false,
  );
if (!process.env.PAYMENT_API_BASE_URL && !(await up())) await startEmulator({ port: emulatorPort, output: "ignore" });
console.log(`Contract suite against ${base}`);
const { status } = spawnSync("npx", ["vitest", "run", "--config", "vitest.contract.config.ts"], { stdio: "inherit" });
await stopAll();
console.log(`Tested: ${base}`);
process.exit(status ?? 1);
