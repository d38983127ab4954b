import { currentAdmin } from "@/lib/admin/auth";
import { claimExportSlot, exportBusyResponse } from "@/lib/admin/exports";
import { exportCatalogCsv } from "@/lib/catalog/csv";
import { getDb } from "@/lib/db/client";

/**
 * `GET /admin/products/export`: the whole catalogue, hidden products included, as a CSV download that the import
 * (app/admin/products/import) reads back unchanged, streamed as it is read. While the instance already streams as many
 * exports as it allows (lib/admin/exports.ts), a 503 page says to try again. Signed-out requests are sent to the
 * sign-in page like every admin URL.
 */
export async function GET(): Promise<Response> {
  // A relative Location: behind a reverse proxy, request.url carries the proxy's upstream host, not the public one.
  if (!(await currentAdmin())) return new Response(null, { status: 303, headers: { Location: "/admin/sign-in" } });
  const release = claimExportSlot("products");
  if (!release) return exportBusyResponse("/admin/products/import");
  const date = new Date().toISOString().slice(0, 10);
  return new Response(exportCatalogCsv(getDb(), release), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="products-${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
