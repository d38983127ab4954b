import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { NextConfig } from "next";
import { EnvError, parseEnv } from "../lib/env";
import { MAX_BULK_PICTURES_FORM_BYTES, MAX_PICTURE_FORM_BYTES } from "../lib/form-limit";
import { setUpTempFolders } from "./temp-folders";

/**
 * A Node host's settings as docs/deploying.md, "A Node host behind a reverse proxy (a VM, a container)", and docs/deploy/
 * show them: the env file that systemd (EnvironmentFile=) and a shell (`set -a; . file; set +a`) both read, and the
 * crontab line of the expiry job.
 */

const tempFolder = setUpTempFolders();
const EXAMPLE = "docs/deploy/shop.env";
const example = readFileSync(EXAMPLE, "utf8");
/** systemd's own parser of env files, in the generator of environment.d(5) (here and on Ubuntu, Debian, Fedora). */
const SYSTEMD_GENERATOR = "/usr/lib/systemd/user-environment-generators/30-systemd-environment-d-generator";

/**
 * The file's variables by the rules it states, under which a shell and systemd agree: one `NAME=value` a line, a
 * comment on a line of its own, a value with a space or a character either treats specially in single quotes.
 * @throws naming the first line outside those rules.
 */
function assignments(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  text.split("\n").forEach((line, index) => {
    if (line === "" || line.startsWith("#")) return;
    const match = /^([A-Z][A-Z0-9_]*)=(?:'([^'\n]*)'|([^\s'"\\$`#;&|<>()*?~!]*))$/.exec(line);
    if (!match) throw new Error(`${EXAMPLE}:${index + 1} is not read alike by a shell and systemd: ${line}`);
    found[match[1]!] = match[2] ?? match[3]!;
  });
  return found;
}

/** What `shell` (bash, sh) exports after `set -a; . file; set +a`, with nothing else in its environment. */
function readByShell(shell: string, file: string): Record<string, string> {
  const out = execFileSync("env", ["-i", shell, "-c", 'set -a && . "$1" && set +a && exec env -0', shell, file]);
  return Object.fromEntries(
    out
      .toString("utf8")
      .split("\0")
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
}

/** What systemd's parser reads from `file`: environment.d's generator prints the result, quoting what needs it. */
function readBySystemd(file: string): Record<string, string> {
  const home = tempFolder("systemd-env-");
  mkdirSync(path.join(home, "environment.d"));
  writeFileSync(path.join(home, "environment.d", "shop.conf"), readFileSync(file));
  const out = execFileSync("env", ["-i", `XDG_CONFIG_HOME=${home}`, SYSTEMD_GENERATOR], { encoding: "utf8" });
  return Object.fromEntries(
    out
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [name, value] = [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)];
        const quoted = /^"(.*)"$/s.exec(value);
        return [name, quoted ? quoted[1]!.replace(/\\(.)/gs, "$1") : value];
      }),
  );
}

/** The same names from `read`, for comparison with the file's own. */
const pick = (read: Record<string, string>, names: string[]) => Object.fromEntries(names.map((n) => [n, read[n]]));

describe(`${EXAMPLE}, the env file the docs show`, () => {
  const expected = assignments(example);
  const names = Object.keys(expected);

  it("keeps to the rules under which a shell and systemd read it alike, and holds what the shop reads", () => {
    expect(names).toEqual(expect.arrayContaining(["SITE_URL", "DATABASE_URL", "PAYMENT_GATEWAYS", "MAIL_FROM"]));
    // Every value reaches the shop as meant: only the placeholders are left to fill in.
    let error: EnvError | undefined;
    try {
      parseEnv(expected, "production");
    } catch (thrown) {
      error = thrown as EnvError;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect(error!.problems.filter((problem) => !problem.includes("still holds a placeholder"))).toEqual([]);
    expect(error!.readable).toMatchObject({
      SITE_URL: "https://shop.example.ly",
      TRUSTED_PROXY_HOPS: 1,
      MAIL_FROM: "Medina Market <orders@shop.example.ly>",
      PAYMENT_GATEWAYS: expect.arrayContaining([{ alias: "moamalat", name: "Bank card (MOAMALAT)" }]),
    });
  });

  it.each(["bash", "sh"])("is read by %s's `set -a; . file` as written", (shell) => {
    expect(pick(readByShell(shell, EXAMPLE), names)).toEqual(expected);
  });

  it.skipIf(!existsSync(SYSTEMD_GENERATOR))("is read by systemd's parser (EnvironmentFile=) as written", () => {
    expect(pick(readBySystemd(EXAMPLE), names)).toEqual(expected);
  });

  it("would not be: the README's former lines fail both ways", () => {
    // The lines this file replaced: an unquoted value with spaces and parentheses (a syntax error in a shell), and a
    // comment after a value (part of the value for systemd).
    const folder = tempFolder("env-file-");
    const old = path.join(folder, "old.env");
    writeFileSync(old, "PAYMENT_GATEWAYS=moamalat=Bank card (MOAMALAT),edfali\n");
    expect(() => readByShell("bash", old)).toThrow();
    if (existsSync(SYSTEMD_GENERATOR)) {
      writeFileSync(old, "TRUSTED_PROXY_HOPS=1          # nginx is one hop\n");
      expect(readBySystemd(old).TRUSTED_PROXY_HOPS).toBe("1          # nginx is one hop");
    }
  });
});

describe("docs/deploying.md's crontab line for the expiry job", () => {
  const readme = readFileSync("docs/deploying.md", "utf8");
  const crontab = readme.split("\n").filter((line) => /^(\S+ ){5}\S/.test(line) && /^[*\d]/.test(line));
  const expiry = crontab.find((line) => line.includes("/api/cron/expire-orders"));

  it("escapes every % (cron makes a bare one a newline)", () => {
    expect(crontab.length).toBeGreaterThan(0);
    for (const line of crontab) expect(line.replace(/\\%/g, ""), line).not.toContain("%");
  });

  it("calls the job with CRON_SECRET from the env file, as cron runs it (sh, an empty environment)", async () => {
    const requests: { url?: string; headers: IncomingHttpHeaders }[] = [];
    const server = createServer((request, response) => {
      requests.push({ url: request.url, headers: request.headers });
      response.end('{"expired":0}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const folder = tempFolder("cron-");
      const envFile = path.join(folder, "shop.env");
      const secret = "cron-secret-from-the-env-file+/=";
      const port = (server.address() as AddressInfo).port;
      writeFileSync(
        envFile,
        example
          .replace(/^SITE_URL=.*$/m, `SITE_URL=http://127.0.0.1:${port}`)
          .replace(/^CRON_SECRET=.*$/m, `CRON_SECRET=${secret}`),
      );
      const command = expiry!.replace(/^(\S+ ){5}/, "").replaceAll("/etc/shop/shop.env", envFile);
      // Asynchronously: the server that answers runs in this process.
      await promisify(execFile)("env", ["-i", "PATH=/usr/bin:/bin", "sh", "-c", command]);
      expect(requests).toEqual([
        { url: "/api/cron/expire-orders", headers: expect.objectContaining({ authorization: `Bearer ${secret}` }) },
      ]);
    } finally {
      server.close();
    }
  });
});

describe("docs/deploy/nginx.conf's body limit", () => {
  it("takes every body the shop takes: its largest form, and whatever Next.js reads in a server action", async () => {
    const site = readFileSync("docs/deploy/nginx.conf", "utf8");
    const limit = (text: string) => {
      const [, size, unit] = /^\s*client_max_body_size (\d+)([km]?);$/m.exec(text)!;
      return Number(size) * { "": 1, k: 1024, m: 1024 * 1024 }[unit as "" | "k" | "m"];
    };
    const bulk = /location = \/admin\/products\/pictures \{[^}]*\}/.exec(site)![0];
    const configFile: string = "../next.config.mjs"; // plain JavaScript: imported by name, without types
    const nextConfig = ((await import(configFile)) as { default: NextConfig }).default;
    // The site's limit takes one picture's form; the bulk upload's page, the largest form of all and Next.js's ceiling.
    expect(limit(site)).toBeGreaterThan(MAX_PICTURE_FORM_BYTES);
    expect(limit(bulk)).toBeGreaterThanOrEqual(MAX_BULK_PICTURES_FORM_BYTES);
    expect(limit(bulk)).toBeGreaterThanOrEqual(Number(nextConfig.experimental?.serverActions?.bodySizeLimit));
    // A larger body gets the shop's own page, not nginx's.
    expect(site).toMatch(/^\s*error_page 413 \/form-too-large;$/m);
  });
});
