/**
 * The emulator as a Hono application, with no network: `createEmulator().app.request(...)` in tests,
 * `server.ts` to listen on a port.
 *
 *   /pay/sandbox/api/v1/…, /pay/api/v1/…                  JSON API (routes/api.ts)
 *   /pay/sandbox/v1/user/payment/preview/…, /pay/v1/…     hosted pages (routes/pages.tsx)
 *   /__emulator/…                                         control API (routes/control.ts)
 *   /                                                     index page (routes/home.tsx)
 */
import { Hono, type Context } from "hono";
import { getPath } from "hono/utils/url";
import { API_BASE, MODES, PAGE_BASE } from "./config";
import { errorResponse } from "./envelope";
import { ConnectionDroppedError, htmlErrorPage } from "./faults";
import { isApiPath, requestLang } from "./http";
import { API_MESSAGES } from "./i18n";
import { apiRoutes } from "./routes/api";
import { controlRoutes } from "./routes/control";
import { renderHome } from "./routes/home";
import { notFoundPage, pageRoutes } from "./routes/pages";
import { createState, type EmulatorOptions, type EmulatorState } from "./state";

export type { EmulatorOptions } from "./state";

export interface Emulator {
  /** The Hono app: `app.fetch` for a server, `app.request(path, init)` in tests. */
  app: Hono;
  /** Clock, stores, fault queue, webhooks, rate limiter and settings of this instance. */
  state: EmulatorState;
}

const isControlPath = (path: string) => path === "/__emulator" || path.startsWith("/__emulator/");

/** Creates an independent emulator instance (own signing key, clock and stores). */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const state = createState(options);
  // Repeated slashes are merged, as the web server in front of the real service does by default.
  const app = new Hono({ getPath: (request) => getPath(request).replace(/\/{2,}/g, "/") });

  const log = state.log;
  if (log) {
    // One line per request. Paths only: no query strings, bodies or headers, so no secrets or access tokens.
    app.use(async (c, next) => {
      const start = performance.now();
      const line = (status: string) =>
        `${c.req.method} ${c.req.path} ${status} ${Math.round(performance.now() - start)}ms`;
      try {
        await next();
      } catch (error) {
        log(line("dropped"));
        throw error;
      }
      log(line(String(c.res.status)));
    });
  }

  app.get("/", (c) => renderHome(c, state));
  for (const mode of MODES) {
    app.route(API_BASE[mode], apiRoutes(state, mode));
    app.route(PAGE_BASE[mode], pageRoutes(state, mode));
  }
  app.route("/__emulator", controlRoutes(state));

  app.notFound((c) => {
    if (isApiPath(c.req.path)) return errorResponse(404, [API_MESSAGES[requestLang(c)].notFound]);
    if (isControlPath(c.req.path)) return c.json({ error: "Not found." }, 404);
    return notFoundPage(c);
  });

  app.onError((error, c) => {
    // A dropped connection has no answer at all: let the error reach the server (or the in-process caller).
    if (error instanceof ConnectionDroppedError) throw error;
    (log ?? console.error)(`Unexpected error on ${c.req.method} ${c.req.path}: ${error.stack ?? error.message}`);
    return unexpectedError(c);
  });

  return { app, state };
}

function unexpectedError(c: Context): Response {
  if (isApiPath(c.req.path)) return errorResponse(500, [API_MESSAGES[requestLang(c)].serverError]);
  if (isControlPath(c.req.path)) return Response.json({ error: "Internal error." }, { status: 500 });
  return new Response(htmlErrorPage(500), { status: 500, headers: { "Content-Type": "text/html; charset=UTF-8" } });
}
