import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_ORDER_LINK_SECRET, DEVELOPMENT_SESSION_SECRET } from "../lib/env";
import { setUpTestDatabase } from "../testing/db";
import { startTestSmtpServer } from "../testing/smtp";
import { setUpTempFolders } from "../testing/temp-folders";
import { openSmsCentre } from "./sms-centre";

/** `npm run doctor -- --production` as a merchant runs it, in a folder of its own. */

const t = setUpTestDatabase();
const tempFolder = setUpTempFolders();

async function doctor(
  env: Record<string, string>,
  { production = true, cwd = tempFolder("doctor-") } = {},
): Promise<{ code: number; out: string }> {
  const root = resolve(import.meta.dirname, "..");
  const tsx = join(root, "node_modules/.bin/tsx");
  try {
    const { stdout, stderr } = await promisify(execFile)(
      tsx,
      ["--conditions=react-server", join(root, "scripts/doctor.ts"), ...(production ? ["--production"] : [])],
      {
        cwd,
        env: {
          NODE_ENV: production ? "production" : "development",
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...env,
        },
      },
    );
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

describe("npm run doctor -- --production", () => {
  it("reports every problem in one list, and still checks what it can", async () => {
    const { code, out } = await doctor({
      // A variable missing, a development secret and a missing cron secret: three rounds before, one now.
      PAYMENT_API_BASE_URL: "https://pay.example.ly/pay/api/v1",
      PAYMENT_CLIENT_SECRET: "secret-456",
      SESSION_SECRET: DEVELOPMENT_SESSION_SECRET,
      ORDER_LINK_SECRET: DEVELOPMENT_ORDER_LINK_SECRET,
      SITE_URL: "https://shop.example.ly",
      PAYMENT_WEBHOOK_SECRET: "whsec-0123456789abcdef",
      DATABASE_URL: t.url,
    });
    expect(code).toBe(1);
    const failures = out.split("\n").filter((line) => line.startsWith("  ✗"));
    expect(failures).toEqual([
      "  ✗ PAYMENT_CLIENT_ID is missing: set it in the shop's environment (see .env.example)",
      "  ✗ SESSION_SECRET is the development default: generate a new one with `openssl rand -base64 32`",
      "  ✗ ORDER_LINK_SECRET is the development default: generate a new one with `openssl rand -base64 32`",
      expect.stringMatching(/^ {2}✗ CRON_SECRET is not set/),
    ]);
    // The database is readable, so it is checked in the same run.
    expect(out).toMatch(/ {2}✓ database .* is reachable and has every migration/);
    expect(out).toContain("the credentials were not tried");
  }, 30_000);
});

describe("npm run doctor: which settings it reads", () => {
  // A checkout as a merchant's was: development's settings and a production env file beside the app, canaries each.
  const folder = tempFolder("doctor-files-");
  writeFileSync(
    join(folder, ".env.development.local"),
    "PAYMENT_CLIENT_ID=canary-development-client\nMERCHANT_LOCALE=ar\n",
  );
  writeFileSync(join(folder, ".env.local"), "PAYMENT_CLIENT_ID=canary-local-client\nMERCHANT_LOCALE=ar\n");
  writeFileSync(join(folder, ".env.production"), "PAYMENT_CLIENT_ID=canary-production-client\n");

  it("--production reads the environment alone and says so: no file beside the app fills in a variable", async () => {
    const { code, out } = await doctor({ DATABASE_URL: t.url }, { cwd: folder });
    expect(code).toBe(1);
    expect(out.split("\n")[0]).toBe(
      "Checking the production configuration from this process's environment (no env file is read)…",
    );
    expect(out).toContain(
      "  ✗ PAYMENT_CLIENT_ID is missing: set it in the shop's environment (see .env.example)\n      → fix it in production's environment",
    );
    expect(out).not.toContain("canary");
  }, 30_000);

  it("in development reads .env.development.local, names it, and asks to rename a .env.local", async () => {
    const { out } = await doctor({ DATABASE_URL: t.url }, { production: false, cwd: folder });
    expect(out).toContain(
      "Checking the development configuration from .env.development.local and .env.local and this process's environment…",
    );
    expect(out).toContain("rename it to .env.development.local");
  }, 30_000);
});

describe("npm run doctor -- --production, e-mail", () => {
  const valid = () => ({
    PAYMENT_API_BASE_URL: "https://pay.example.ly/pay/api/v1",
    PAYMENT_CLIENT_ID: "client-123",
    PAYMENT_CLIENT_SECRET: "secret-456",
    SESSION_SECRET: "a-production-session-secret-of-32-characters",
    ORDER_LINK_SECRET: "a-production-order-link-secret-of-32-characters",
    SITE_URL: "https://shop.example.ly",
    PAYMENT_WEBHOOK_SECRET: "whsec-0123456789abcdef",
    CRON_SECRET: "cron-0123456789abcdef",
    DATABASE_URL: t.url,
    TRUSTED_PROXY_HOPS: "1", // behind nginx, as an https SITE_URL on a Node host is
  });
  const proxyWarning = "  ! SITE_URL is https, which the shop's own server does not speak, so a proxy stands in front";

  it("says e-mail is off without SMTP_URL, as a note and not a failure", async () => {
    const { out } = await doctor(valid());
    expect(out).toContain("  ! e-mail is off: SMTP_URL is not set");
    expect(out).not.toContain(proxyWarning);
    expect(out.split("\n").filter((line) => line.startsWith("  ✗") && /mail|SMTP/i.test(line))).toEqual([]);
  }, 30_000);

  it("warns when SITE_URL is https (so a proxy terminates TLS in front) but TRUSTED_PROXY_HOPS trusts none", async () => {
    // Not with TRUSTED_PROXY_HOPS 1: the test above.
    expect((await doctor({ ...valid(), TRUSTED_PROXY_HOPS: "0" })).out).toContain(proxyWarning);
  }, 30_000);

  // One run for both servers: each run of the doctor costs seconds of a core.
  it("logs in to the SMTP server of SMTP_URL and binds to the SMS centre of SMPP_URL, and says plainly when it cannot", async () => {
    const smtp = await startTestSmtpServer();
    const centre = await openSmsCentre({ smppPort: 0, webPort: 0, folder: tempFolder("doctor-sms-") });
    try {
      const servers = {
        SMTP_URL: smtp.url,
        MAIL_FROM: "Shop <shop@medina.example>",
        MERCHANT_EMAIL: "owner@medina.example",
        SMPP_URL: centre.smppUrl,
        SMPP_SYSTEM_ID: "medina",
        SMS_SENDER_NAME: "MedinaShop",
      };
      const on = await doctor({ ...valid(), ...servers });
      expect(on.out).toContain(`  ✓ e-mail is on: the SMTP server ${new URL(smtp.url).host} accepted a connection`);
      expect(on.out).toContain(
        `  ✓ text messages are on: the SMS centre ${centre.smppUrl} took the bind of medina; they come from MedinaShop, at most 500 parts a Tripoli day`,
      );
      await Promise.all([smtp.stop(), centre.close()]);
      const down = await doctor({ ...valid(), ...servers });
      expect(down.code).toBe(1);
      expect(down.out).toMatch(
        / {2}✗ the SMTP server 127\.0\.0\.1:\d+ of SMTP_URL did not take a connection and login/,
      );
      expect(down.out).toContain("  ✗ the SMS centre of SMPP_URL did not take the bind");
    } finally {
      await Promise.all([smtp.stop().catch(() => {}), centre.close().catch(() => {})]);
    }
  }, 60_000);
});
