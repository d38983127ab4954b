import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_SESSION_SECRET } from "../lib/env";
import { setUpTestDatabase } from "../testing/db";
import { startTestSmtpServer } from "../testing/smtp";

/** `npm run doctor -- --production` as a merchant runs it, in a folder without a .env.local. */

const t = setUpTestDatabase();

async function doctor(env: Record<string, string>): Promise<{ code: number; out: string }> {
  const root = resolve(import.meta.dirname, "..");
  const tsx = join(root, "node_modules/.bin/tsx");
  try {
    const { stdout } = await promisify(execFile)(
      tsx,
      ["--conditions=react-server", join(root, "scripts/doctor.ts"), "--production"],
      {
        cwd: mkdtempSync(join(tmpdir(), "doctor-")),
        env: { NODE_ENV: "production", PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      },
    );
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, out: failed.stdout };
  }
}

describe("npm run doctor -- --production", () => {
  it("reports every problem in one list, and still checks what it can", async () => {
    const { code, out } = await doctor({
      // A variable missing, a development secret and a missing cron secret: three rounds before, one now.
      PAYMENT_API_BASE_URL: "https://pay.example.ly/pay/api/v1",
      PAYMENT_CLIENT_SECRET: "secret-456",
      SESSION_SECRET: DEVELOPMENT_SESSION_SECRET,
      SITE_URL: "https://shop.example.ly",
      PAYMENT_WEBHOOK_SECRET: "whsec-0123456789abcdef",
      DATABASE_URL: t.url,
    });
    expect(code).toBe(1);
    const failures = out.split("\n").filter((line) => line.startsWith("  ✗"));
    expect(failures).toEqual([
      "  ✗ PAYMENT_CLIENT_ID is missing: set it in .env.local (see .env.example)",
      "  ✗ SESSION_SECRET is the development default: generate a new one with `openssl rand -base64 32`",
      expect.stringMatching(/^ {2}✗ CRON_SECRET is not set/),
    ]);
    // The database is readable, so it is checked in the same run.
    expect(out).toMatch(/ {2}✓ database .* is reachable and has every migration/);
    expect(out).toContain("the credentials were not tried");
  }, 30_000);
});

describe("npm run doctor -- --production, e-mail", () => {
  const valid = () => ({
    PAYMENT_API_BASE_URL: "https://pay.example.ly/pay/api/v1",
    PAYMENT_CLIENT_ID: "client-123",
    PAYMENT_CLIENT_SECRET: "secret-456",
    SESSION_SECRET: "a-production-session-secret-of-32-characters",
    SITE_URL: "https://shop.example.ly",
    PAYMENT_WEBHOOK_SECRET: "whsec-0123456789abcdef",
    CRON_SECRET: "cron-0123456789abcdef",
    DATABASE_URL: t.url,
  });

  it("says e-mail is off without SMTP_URL, as a note and not a failure", async () => {
    const { out } = await doctor(valid());
    expect(out).toContain("  ! e-mail is off: SMTP_URL is not set");
    expect(out.split("\n").filter((line) => line.startsWith("  ✗") && /mail|SMTP/i.test(line))).toEqual([]);
  }, 30_000);

  it("logs in to the SMTP server of SMTP_URL, and says plainly when it cannot", async () => {
    const smtp = await startTestSmtpServer();
    try {
      const mail = {
        SMTP_URL: smtp.url,
        MAIL_FROM: "Shop <shop@medina.example>",
        MERCHANT_EMAIL: "owner@medina.example",
      };
      const on = await doctor({ ...valid(), ...mail });
      expect(on.out).toContain(`  ✓ e-mail is on: the SMTP server ${new URL(smtp.url).host} accepted a connection`);
      await smtp.stop();
      const down = await doctor({ ...valid(), ...mail });
      expect(down.code).toBe(1);
      expect(down.out).toMatch(
        / {2}✗ the SMTP server 127\.0\.0\.1:\d+ of SMTP_URL did not take a connection and login/,
      );
    } finally {
      await smtp.stop().catch(() => {});
    }
  }, 60_000);
});
