// The browser tests' database server: a throwaway embedded PostgreSQL on the first port given, and with a second
// port, PgBouncer in transaction mode in front of it there (the pooler Neon and Supabase run), so the shop can be
// tested as merchants on serverless hosts run it. Started by Playwright as a web server (playwright.config.ts) and
// stopped by it with SIGTERM, which stops both and removes their files.
//
//   tsx e2e/database.ts 4120            PostgreSQL on 4120
//   tsx e2e/database.ts 4120 6432       … and PgBouncer (Debian package `pgbouncer`) on 6432
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmbeddedDatabase } from "../scripts/servers";

const [databasePort, poolerPort] = process.argv.slice(2).map(Number);
const server = await startEmbeddedDatabase({ port: databasePort });
console.log(`[e2e] embedded PostgreSQL at 127.0.0.1:${server.port}, data in ${server.dataDir} (removed at the end)`);
const pooler = poolerPort ? startPgBouncer(poolerPort, server.port) : undefined;

let stopping = false;
const stop = () => {
  stopping = true;
  pooler?.process.kill("SIGTERM");
  if (pooler) rmSync(pooler.folder, { recursive: true, force: true });
  void server.stop().finally(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

/** PgBouncer in transaction mode on `port`, for every database of the PostgreSQL on `upstreamPort`. */
function startPgBouncer(port: number, upstreamPort: number): { process: ChildProcess; folder: string } {
  const binary = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/opt/homebrew/bin/pgbouncer", "/usr/local/bin/pgbouncer"].find(existsSync) ?? "pgbouncer";
  const folder = mkdtempSync(path.join(tmpdir(), "shop-pgbouncer-"));
  chmodSync(folder, 0o755); // as root it runs as the postgres user, which reads these files
  writeFileSync(path.join(folder, "users.txt"), `"postgres" "postgres"\n`, { mode: 0o644 });
  // No ignore_startup_parameters: a client that sends one (as `pg` does for statement_timeout) is refused, as the
  // hosted poolers refuse it. PgBouncer 1.18 keeps no prepared statements across transactions either.
  const ini = `[databases]
* = host=127.0.0.1 port=${upstreamPort}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = scram-sha-256
auth_file = ${path.join(folder, "users.txt")}
pool_mode = transaction
default_pool_size = 20
max_client_conn = 1000
log_connections = 0
log_disconnections = 0
log_stats = 0
`;
  writeFileSync(path.join(folder, "pgbouncer.ini"), ini, { mode: 0o644 });
  // PgBouncer refuses to run as root; -u makes it switch to the postgres user.
  const asRoot = process.getuid?.() === 0 ? ["-u", "postgres"] : [];
  const child = spawn(binary, [...asRoot, path.join(folder, "pgbouncer.ini")], { stdio: ["ignore", "inherit", "inherit"] });
  child.once("error", (error) => {
    console.error(`[e2e] PgBouncer did not start (${error.message}): install it (Debian: apt-get install pgbouncer).`);
    process.exit(1);
  });
  child.once("exit", (code, signal) => {
    if (!stopping) {
      console.error(`[e2e] PgBouncer exited (${code ?? signal}).`);
      process.exit(1);
    }
  });
  console.log(`[e2e] PgBouncer ${binary} in transaction mode at 127.0.0.1:${port}`);
  return { process: child, folder };
}
