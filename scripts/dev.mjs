// `npm run dev`: the storefront on :3000 and, unless .env.local points the shop at another payment service, the
// local emulator of the service on 127.0.0.1:4010. Ctrl-C stops both.
import { existsSync } from "node:fs";
import concurrently from "concurrently";

if (existsSync(".env.local")) process.loadEnvFile(".env.local");
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
const emulatorPort = process.env.EMULATOR_PORT ?? "4010";
const base = process.env.PAYMENT_API_BASE_URL;
const needsEmulator = !base || pointsAtEmulator(base);

function pointsAtEmulator(url) {
  if (!URL.canParse(url)) return false; // lib/env.ts explains what is wrong with it when the shop starts
  const { hostname, port } = new URL(url);
  return ["127.0.0.1", "localhost"].includes(hostname) && port === emulatorPort;
}

const commands = [{ command: "next dev", name: "shop", prefixColor: "green" }];
if (needsEmulator) commands.unshift({ command: "tsx emulator/server.ts", name: "emulator", prefixColor: "blue" });
else console.log(`[dev] PAYMENT_API_BASE_URL is ${base}: not starting the local emulator.`);

const { result } = concurrently(commands, { killOthersOn: ["failure", "success"], restartTries: 0 });
result.then(
  () => process.exit(0),
  () => process.exit(1),
);
