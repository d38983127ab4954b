// The embedded PostgreSQL of development and tests: PGlite (PostgreSQL compiled to WebAssembly) served over the
// Postgres wire protocol, so the shop talks to it with `pg` exactly as it talks to a real PostgreSQL.
//
//   tsx scripts/embedded-postgres.ts --port 54320 --data .data/pg     (npm run dev starts it for you)
//   tsx scripts/embedded-postgres.ts --port 4120                       (in memory: the browser tests' database)
//
// PGlite is one database session. @electric-sql/pglite-socket's server shares it between connections message by
// message, which lets one connection's query run inside another's transaction (we saw wrong rows under load). This
// server shares it by whole exchanges instead: a connection has the session from its first message until PGlite
// says it is idle outside a transaction (ReadyForQuery 'I'). Statements run one at a time: fine for a developer
// and for tests, never for production (use DATABASE_URL with a real PostgreSQL there).
import { mkdirSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";

export interface EmbeddedPostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  stop(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

/**
 * Starts PGlite (in memory, or persisted in `dataDir`) behind a TCP server on `host:port` (port 0 picks one).
 * @throws when the port is taken (the error's `code` is EADDRINUSE).
 */
export async function startEmbeddedPostgres(options: { port?: number; host?: string; dataDir?: string } = {}): Promise<EmbeddedPostgres> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const db = await PGlite.create(options.dataDir);
  // Whole exchanges take turns on the one session: `turn` is the tail of the queue, `owner` the connection
  // whose transaction is open (it keeps the session between its exchanges).
  let turn: Promise<void> = Promise.resolve();
  let owner: number | null = null;
  let connections = 0;
  let release: (() => void) | null = null;

  class Connection {
    private readonly id = ++connections;
    private buffer = Buffer.alloc(0);
    private started = false;
    private pending: Promise<void> = Promise.resolve();
    constructor(private readonly socket: Socket) {
      socket.setNoDelay(true);
      socket.on("data", (chunk) => this.receive(chunk));
      socket.on("error", () => socket.destroy());
      socket.on("close", () => void this.close());
    }

    private receive(chunk: Buffer) {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      const units: Buffer[] = [];
      for (;;) {
        const unit = this.nextUnit();
        if (!unit) break;
        units.push(unit);
      }
      // Exchanges of one connection run in the order they arrived.
      for (const unit of units) {
        this.pending = this.pending.then(() => this.run(unit)).catch(() => void this.socket.destroy());
      }
    }

    /** The next complete exchange in the buffer: a start-up message, or messages up to Sync ('S') or Query ('Q'). */
    private nextUnit(): Buffer | null {
      if (!this.started) {
        if (this.buffer.length < 8) return null;
        const length = this.buffer.readInt32BE(0);
        const code = this.buffer.readInt32BE(4);
        if (this.buffer.length < length) return null;
        const message = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSS_REQUEST) {
          this.socket.write("N"); // no encryption on loopback
          return this.nextUnit();
        }
        if (code === CANCEL_REQUEST) {
          this.socket.end();
          return null;
        }
        this.started = true;
        return message;
      }
      let offset = 0;
      while (this.buffer.length >= offset + 5) {
        const type = String.fromCharCode(this.buffer[offset]!);
        const end = offset + 1 + this.buffer.readInt32BE(offset + 1);
        if (this.buffer.length < end) return null;
        offset = end;
        if (type === "X") {
          this.socket.end();
          this.buffer = Buffer.alloc(0);
          return null;
        }
        if (type === "S" || type === "Q") {
          const unit = this.buffer.subarray(0, offset);
          this.buffer = this.buffer.subarray(offset);
          return unit;
        }
      }
      return null;
    }

    private async run(unit: Buffer) {
      if (owner !== this.id) await this.acquire();
      // Every exchange's answer ends with ReadyForQuery: 'Z', length 5, then the transaction status.
      let tail = Buffer.alloc(0);
      await db.execProtocolRawStream(new Uint8Array(unit), {
        onRawData: (data) => {
          if (this.socket.writable) this.socket.write(data);
          tail = Buffer.concat([tail, data]).subarray(-6);
        },
      });
      const idle = tail.length < 6 || tail[0] !== 0x5a || tail[5] === 0x49; // not 'Z', or status 'I'
      if (idle) this.release();
    }

    private acquire(): Promise<void> {
      const previous = turn;
      let done!: () => void;
      turn = new Promise((resolve) => (done = resolve));
      return previous.then(() => {
        owner = this.id;
        release = done;
      });
    }

    private release() {
      if (owner !== this.id) return;
      owner = null;
      const done = release;
      release = null;
      done?.();
    }

    /** A connection that goes away in the middle of a transaction leaves nothing behind. */
    private async close() {
      await this.pending;
      if (owner === this.id) {
        await db.exec("rollback").catch(() => {});
        this.release();
      }
    }
  }

  const server: Server = createServer((socket) => new Connection(socket));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `postgresql://postgres@${options.host ?? "127.0.0.1"}:${port}/postgres`,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open client connections would keep the server from closing.
        server.getConnections(() => {});
      });
      await db.close();
    },
  };
}

// Run as a program: start, say where, stop cleanly on Ctrl-C (PGlite must close to keep its files consistent).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { port: { type: "string", default: "54320" }, host: { type: "string", default: "127.0.0.1" }, data: { type: "string" } } });
  const embedded = await startEmbeddedPostgres({ port: Number(values.port), host: values.host, dataDir: values.data });
  console.log(`[db] embedded PostgreSQL (PGlite${values.data ? `, data in ${values.data}` : ", in memory"}) at ${embedded.url}`);
  const stop = () => void embedded.stop().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
