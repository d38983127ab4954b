// A probe loaded into a `next start` process by the bench's profile pass only
// (NODE_OPTIONS="--import ./scripts/bench/probe.mjs", BENCH_PROBE_PORT=<port>); the budget measurements run without
// it. For every HTTP request the server answers it records, without changing the app:
//   - the server time, from the request's arrival to the last byte handed to the socket;
//   - the time spent in fetch() (the payment service calls), and how many calls;
//   - the time spent in `pg` queries (from the query call to its result: pool wait, round trip, the database's own
//     work), and how many queries.
// It also takes a CPU profile on demand (the inspector's sampling profiler). Both are read over HTTP on 127.0.0.1:
//   GET /records (and empties the list), POST /profile/start, POST /profile/stop → the .cpuprofile JSON.
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import { Session } from "node:inspector/promises";
import { createRequire } from "node:module";
import path from "node:path";

const port = Number(process.env.BENCH_PROBE_PORT);
const requests = new AsyncLocalStorage();
let records = [];
let probeServer;

// Requests: the server's "request" event runs the whole handler inside this request's record.
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...args) {
  if (event !== "request" || this === probeServer) return emit.call(this, event, ...args);
  const [request, response] = args;
  const record = {
    method: request.method,
    url: request.url,
    startedAt: performance.now(),
    fetchMs: 0,
    fetches: 0,
    dbMs: 0,
    queries: 0,
  };
  response.once("finish", () => {
    record.totalMs = performance.now() - record.startedAt;
    record.status = response.statusCode;
    records.push(record);
    if (records.length > 20_000) records.shift();
  });
  return requests.run(record, () => emit.call(this, event, ...args));
};

// fetch: wrapped before Next.js wraps it (Next keeps the fetch it finds at start-up and calls it).
const originalFetch = globalThis.fetch;
globalThis.fetch = async function probedFetch(...args) {
  const record = requests.getStore();
  const started = performance.now();
  try {
    return await originalFetch.apply(this, args);
  } finally {
    if (record) {
      record.fetchMs += performance.now() - started;
      record.fetches++;
    }
  }
};

// pg: the project's own copy (Next.js keeps `pg` external, so the server requires this very module).
try {
  const require = createRequire(path.join(process.cwd(), "package.json"));
  const { Client } = require("pg");
  const query = Client.prototype.query;
  Client.prototype.query = function probedQuery(...args) {
    const record = requests.getStore();
    if (!record) return query.apply(this, args);
    const started = performance.now();
    const done = () => {
      record.dbMs += performance.now() - started;
      record.queries++;
    };
    const last = args.length - 1;
    if (typeof args[last] === "function") {
      const callback = args[last];
      args[last] = function (...results) {
        done();
        return callback.apply(this, results);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result && typeof result.then === "function") result.then(done, done);
    return result;
  };
} catch {
  // no pg here (the baseline app): nothing to time
}

let session;
probeServer = http.createServer(async (request, response) => {
  try {
    if (request.method === "GET" && request.url === "/records") {
      const body = JSON.stringify(records);
      records = [];
      response.writeHead(200, { "Content-Type": "application/json" }).end(body);
    } else if (request.method === "POST" && request.url === "/profile/start") {
      session = new Session();
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.setSamplingInterval", { interval: 200 });
      await session.post("Profiler.start");
      response.writeHead(204).end();
    } else if (request.method === "POST" && request.url === "/profile/stop") {
      const { profile } = await session.post("Profiler.stop");
      session.disconnect();
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(profile));
    } else response.writeHead(404).end();
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
});
// A child process inheriting NODE_OPTIONS finds the port taken: it then records nothing, and says nothing.
probeServer.on("error", () => {});
if (port) probeServer.listen(port, "127.0.0.1");
probeServer.unref();
