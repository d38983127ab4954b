import { currentAdmin } from "@/lib/admin/auth";
import { claimExportSlot, exportBusyResponse } from "@/lib/admin/exports";
import { exportFileName, exportOrdersCsv, parseOrderListQuery } from "@/lib/admin/orders";
import { getDb } from "@/lib/db/client";

/**
 * `GET /admin/orders/export?status=…&q=…`: the filtered orders as a CSV download (lib/admin/orders.ts,
 * `exportOrdersCsv`: its columns, Libya's times), named for the merchant's day, streamed as it is read. While the
 * instance already streams as many exports as it allows (lib/admin/exports.ts), a 503 page says to try again.
 * Signed-out requests are sent to the sign-in page like every admin URL.
 */
export async function GET(request: Request): Promise<Response> {
  // A relative Location: behind a reverse proxy, request.url carries the proxy's upstream host, not the public one.
  if (!(await currentAdmin())) return new Response(null, { status: 303, headers: { Location: "/admin/sign-in" } });
  const { query } = parseOrderListQuery(Object.fromEntries(new URL(request.url).searchParams));
  const release = claimExportSlot("orders");
  if (!release) return exportBusyResponse("/admin/orders");
  return new Response(exportOrdersCsv(getDb(), query, release), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName()}"`,
      "Cache-Control": "no-store",
    },
  });
}
