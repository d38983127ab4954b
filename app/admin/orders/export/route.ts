import { currentAdmin } from "@/lib/admin/auth";
import { exportFileName, exportOrdersCsv, parseOrderListQuery } from "@/lib/admin/orders";
import { getDb } from "@/lib/db/client";

/**
 * `GET /admin/orders/export?status=…&q=…`: the filtered orders as a CSV download (lib/admin/orders.ts,
 * `exportOrdersCsv`: its columns, Libya's times), named for the merchant's day, streamed in batches. Signed-out
 * requests are sent to the sign-in page like every admin URL.
 */
export async function GET(request: Request): Promise<Response> {
  // A relative Location: behind a reverse proxy, request.url carries the proxy's upstream host, not the public one.
  if (!(await currentAdmin())) return new Response(null, { status: 303, headers: { Location: "/admin/sign-in" } });
  const { query } = parseOrderListQuery(Object.fromEntries(new URL(request.url).searchParams));
  const rows = exportOrdersCsv(getDb(), query);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await rows.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName()}"`,
      "Cache-Control": "no-store",
    },
  });
}
