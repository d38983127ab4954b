"use server";

import { redirect } from "next/navigation";
import { requireAdmin } from "@/lib/admin/auth";
import { applyCatalogImport, IMPORT_ID, storeCatalogImport } from "@/lib/catalog/csv";
import { uploadedFile } from "@/lib/csv";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/log";

/**
 * "Check the file": stores the uploaded catalogue CSV (form field `file`) and opens its dry run. Nothing in the
 * catalogue changes here.
 */
export async function checkCatalogCsvAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const result = await storeCatalogImport(getDb(), { file: await uploadedFile(form, "file"), by: admin.email });
  logger.info({ event: "admin_catalog_csv", result: "id" in result ? "stored" : result.error });
  redirect("id" in result ? `/admin/products/import/${result.id}` : `/admin/products/import?error=${result.error}`);
}

/**
 * "Apply" (form fields `id`, and `plan`: the hash of the dry run the admin saw): imports the stored file in one
 * transaction, as the signed-in admin (lib/catalog/csv.ts). The storefront reads the catalogue from the database on
 * every request (lib/catalog/products.ts), so it shows the import at once.
 */
export async function applyCatalogCsvAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = String(form.get("id") ?? "");
  const plan = String(form.get("plan") ?? "").slice(0, 64);
  const result = IMPORT_ID.test(id)
    ? await applyCatalogImport(getDb(), id, plan, admin.email)
    : { outcome: "not_found" as const };
  logger.info({ event: "admin_catalog_import", importId: id.slice(0, 64), result: result.outcome });
  const counts = result.outcome === "applied" ? `&created=${result.created}&updated=${result.updated}` : "";
  redirect(`/admin/products/import/${encodeURIComponent(id.slice(0, 64))}?result=${result.outcome}${counts}`);
}
