import "server-only";
import { getLocale, getTranslations } from "next-intl/server";
import { direction, isLocale } from "../i18n/config";
import { describeDbFailure } from "../db/errors";
import { logger } from "../log";

/**
 * How many CSV exports (the orders', the catalogue's) one server instance streams at once. Each holds one of the
 * pool's five connections while it reads a batch (lib/db/client.ts), and writes its rows on the same event loop as the
 * checkouts, half of the time at most (lib/csv.ts, `csvStream`): with two at once, the checkouts beside four export
 * requests at 100,000 orders measured 2.5× their idle p50 (`npm run bench:export-load`). Another is refused with
 * {@link exportBusyResponse} until it ends.
 */
export const MAX_CONCURRENT_EXPORTS = 1;

// Kept on globalThis: every route's bundle, and a `next dev` reload, counts the one instance's exports together.
const state = globalThis as typeof globalThis & { shopExportsRunning?: number };

/**
 * Claims one of the instance's {@link MAX_CONCURRENT_EXPORTS} export slots.
 * @param name the export's name in the log (`orders`, `products`).
 * @returns the function that gives it back when the export's stream ends, with the error it ended with, if any: a
 *   failure (the database lost mid-file) is logged, a download the browser cancelled is not. Calling it again does
 *   nothing. `null` when every slot is taken.
 */
export function claimExportSlot(name = "export"): ((error?: Error) => void) | null {
  const running = state.shopExportsRunning ?? 0;
  if (running >= MAX_CONCURRENT_EXPORTS) return null;
  state.shopExportsRunning = running + 1;
  let released = false;
  return (error) => {
    if (released) return;
    released = true;
    state.shopExportsRunning = Math.max(0, (state.shopExportsRunning ?? 1) - 1);
    if (error && (error as { code?: string }).code !== "ERR_STREAM_PREMATURE_CLOSE")
      logger.error({ event: "admin_export_failed", export: name, ...describeDbFailure(error) });
  };
}

/** How long the busy answer asks the admin (and `Retry-After`) to wait, in seconds. */
const RETRY_AFTER_S = 30;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The answer when every export slot is taken: 503 with `Retry-After`, and a short page in the admin's language that
 * says an export is already running and to try again, with a link back to `back` (a path of the back office).
 */
export async function exportBusyResponse(back: string): Promise<Response> {
  const [t, locale] = await Promise.all([getTranslations("exportBusy"), getLocale()]);
  const html = `<!doctype html>
<html lang="${escapeHtml(locale)}" dir="${isLocale(locale) ? direction(locale) : "ltr"}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(t("title"))}</title></head>
<body><main><h1>${escapeHtml(t("title"))}</h1><p>${escapeHtml(t("text", { seconds: RETRY_AFTER_S }))}</p><p><a href="${escapeHtml(back)}">${escapeHtml(t("back"))}</a></p></main></body>
</html>`;
  return new Response(html, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": String(RETRY_AFTER_S),
    },
  });
}
