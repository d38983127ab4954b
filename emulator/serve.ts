/** Runs an emulator app on a real port with @hono/node-server. */
import { serve, type ServerType } from "@hono/node-server";
import type { Hono } from "hono";
import type { AddressInfo } from "node:net";

export interface RunningServer {
  server: ServerType;
  /** `http://host:port` actually listened on (useful with port 0). */
  url: string;
  /** Stops accepting connections, closes open ones and resolves when the server is closed. */
  close(): Promise<void>;
}

/** Listens on `host:port` (port 0 picks a free port); rejects if the port is taken. */
export function startServer(app: Hono, { host, port }: { host: string; port: number }): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => {
      server.off("error", reject);
      const shownHost = info.family === "IPv6" ? `[${info.address}]` : info.address;
      resolve({
        server,
        url: `http://${shownHost}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ("closeAllConnections" in server) server.closeAllConnections();
          }),
      });
    });
    server.once("error", reject);
  });
}
