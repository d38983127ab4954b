"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { requireAdmin } from "@/lib/admin/auth";
import { parseProductId, parseStockForm, type StockFormValues } from "@/lib/catalog/back-office";
import {
  adjustStock,
  createProduct,
  PRODUCT_FIELDS,
  productInputSchema,
  setProductVisible,
  updateProduct,
  type ProductField,
  type ProductProblem,
} from "@/lib/catalog/editing";
import { deleteProduct, restoreProduct } from "@/lib/catalog/deletion";
import { addPicture, removePicture } from "@/lib/catalog/pictures";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/log";

/**
 * The back office's writes to the catalogue (app/admin/products). Each checks the admin first, goes through
 * lib/catalog/ (one transaction with its audit row); the storefront reads the database on every request, so the shop
 * shows the change at once. A form that is refused comes back with a message on each field and what the admin typed.
 */

/** The product form's typed fields: all but the `visible` checkbox. */
const PRODUCT_FORM_FIELDS = PRODUCT_FIELDS.filter(
  (field): field is Exclude<ProductField, "visible"> => field !== "visible",
);

/** What the product form shows after a refused submission: the message of each field, and what was typed. */
export interface ProductFormState {
  message?: string;
  fieldErrors?: Partial<Record<ProductField, string>>;
  values: Partial<Record<Exclude<ProductField, "visible">, string>> & { visible?: boolean };
}

/**
 * "Add the product" or "Save changes" (form field `id` for an edit; the product's fields; `visible` a checkbox;
 * `stock` only when adding: an edit changes stock with the stock form). Parsed with the one product schema
 * (lib/catalog/editing.ts); on success, to the product's page.
 */
export async function saveProductAction(_previous: ProductFormState, form: FormData): Promise<ProductFormState> {
  const admin = await requireAdmin();
  const values: ProductFormState["values"] = { visible: form.get("visible") === "on" };
  for (const field of PRODUCT_FORM_FIELDS) {
    const value = form.get(field);
    if (typeof value === "string") values[field] = value.slice(0, 10_000);
  }
  const idField = form.get("id");
  const id = idField === null ? undefined : parseProductId(idField);
  if (idField !== null && id === undefined) redirect("/admin/products?result=not_found");
  const parsed = productInputSchema.safeParse(id === undefined ? values : { ...values, stock: "" });
  const t = await getTranslations("admin.products");
  if (!parsed.success) {
    const issues = z.flattenError(parsed.error).fieldErrors;
    const fieldErrors: ProductFormState["fieldErrors"] = {};
    for (const field of PRODUCT_FORM_FIELDS) {
      const problem = issues[field]?.[0] as ProductProblem | undefined;
      if (problem) fieldErrors[field] = t(`problems.${problem}`);
    }
    return { values, fieldErrors, message: t("form.fixFields") };
  }
  const { stock, ...fields } = parsed.data;
  const result =
    id === undefined
      ? await createProduct(getDb(), parsed.data, admin.email)
      : await updateProduct(getDb(), id, fields, admin.email);
  logger.info({
    event: id === undefined ? "admin_product_created" : "admin_product_edited",
    productId: "id" in result ? result.id : id,
    result: result.ok ? "ok" : result.problem,
    stockCounted: stock !== null,
  });
  if (!result.ok && result.problem === "slugTaken") {
    return { values, fieldErrors: { slug: t("problems.slugTaken") }, message: t("form.fixFields") };
  }
  if (!result.ok && result.problem === "archived") redirect(`/admin/products/${id}?result=archived_locked`);
  if (!result.ok) redirect("/admin/products?result=not_found");
  if ("id" in result) redirect(`/admin/products/${result.id}?result=created`);
  redirect(`/admin/products/${id}?result=${result.changed.length > 0 ? "saved" : "unchanged"}`);
}

/** "Hide from the shop" / "Show in the shop" (form fields `id`, `visible`: `true` or `false`). */
export async function setVisibleAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = parseProductId(form.get("id"));
  const visible = form.get("visible") === "true";
  const changed = id === undefined ? "not_found" : await setProductVisible(getDb(), id, visible, admin.email);
  logger.info({ event: "admin_product_visibility", productId: id, visible, result: changed });
  if (changed === "not_found") redirect("/admin/products?result=not_found");
  if (changed === "archived") redirect(`/admin/products/${id}?result=archived_locked`);
  redirect(`/admin/products/${id}?result=${visible ? "shown" : "hidden"}`);
}

/**
 * "Delete the product" (form field `id`): deleted with its pictures when no order names it (to the list, which says
 * so); archived when orders name it (back to its page, which says why). lib/catalog/deletion.ts decides, in one
 * transaction.
 */
export async function deleteProductAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = parseProductId(form.get("id"));
  const outcome = id === undefined ? "not_found" : await deleteProduct(getDb(), id, admin.email);
  logger.info({ event: "admin_product_deleted", productId: id, result: outcome });
  if (outcome === "archived") redirect(`/admin/products/${id}?result=archived`);
  redirect(`/admin/products?result=${outcome}`);
}

/** "Restore to the catalogue" (form field `id`): an archived product comes back, hidden. */
export async function restoreProductAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = parseProductId(form.get("id"));
  const restored = id === undefined ? "not_found" : await restoreProduct(getDb(), id, admin.email);
  logger.info({ event: "admin_product_restored", productId: id, result: restored });
  if (restored === "not_found") redirect("/admin/products?result=not_found");
  redirect(`/admin/products/${id}?result=${restored ? "restored" : "unchanged"}`);
}

/** What the stock form shows after a submission: a message (an error or what was done), and what was typed. */
export interface StockFormState {
  message?: string;
  done?: boolean;
  fieldErrors?: Partial<Record<"amount" | "reason", string>>;
  values: StockFormValues;
}

/**
 * "Adjust stock" (form fields `id`, `mode`: `change`, `set` or `untracked`, `amount` and a required `reason`); see
 * lib/catalog/back-office.ts for what each accepts. Taking out more than is on hand, or lowering the count below the units
 * open checkouts hold, is refused with how many there are. The change and its reason go in the product's history.
 */
export async function adjustStockAction(_previous: StockFormState, form: FormData): Promise<StockFormState> {
  const admin = await requireAdmin();
  const values: StockFormValues = {};
  for (const field of ["mode", "amount", "reason"] as const) {
    const value = form.get(field);
    if (typeof value === "string") values[field] = value.slice(0, 1_000);
  }
  const id = parseProductId(form.get("id"));
  if (id === undefined) redirect("/admin/products?result=not_found");
  const t = await getTranslations("admin.products.stock");
  const parsed = parseStockForm(values);
  if (!parsed.ok) {
    const fieldErrors: StockFormState["fieldErrors"] = {};
    for (const [field, problem] of Object.entries(parsed.problems)) {
      fieldErrors[field as "amount" | "reason"] = t(`problems.${problem}`);
    }
    return { values, fieldErrors, message: t("fixFields") };
  }
  const result = await adjustStock(getDb(), id, parsed.change, parsed.reason, admin.email);
  logger.info({ event: "admin_stock_adjusted", productId: id, result: result.ok ? "ok" : result.problem });
  if (!result.ok) {
    if (result.problem === "not_found") redirect("/admin/products?result=not_found");
    const message =
      result.problem === "below_held"
        ? t("problems.belowHeld", { held: result.held })
        : result.problem === "below_zero" || result.problem === "too_many"
          ? t(result.problem === "below_zero" ? "problems.belowZero" : "problems.tooMany", { stock: result.stock })
          : t("problems.notCounted");
    return { values, fieldErrors: { amount: message }, message: t("fixFields") };
  }
  const counted = (count: number | null) => (count === null ? t("notCountedShort") : String(count));
  // The form is emptied for the next adjustment; the page around it is rendered again and shows the new stock.
  revalidatePath(`/admin/products/${id}`);
  return {
    values: {},
    done: true,
    message: t("done", { before: counted(result.before), after: counted(result.after) }),
  };
}

/** "Upload" a picture (form fields `id`, `picture`: the file): checked and re-encoded by lib/catalog/pictures.ts. */
export async function addPictureAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = parseProductId(form.get("id"));
  if (id === undefined) redirect("/admin/products?result=not_found");
  const file = form.get("picture");
  const bytes = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array();
  const stored = await addPicture(getDb(), id, bytes, admin.email).catch((error: unknown) => {
    // A product that does not exist (removed meanwhile, or a forged id): its pictures' foreign key refuses it.
    if ((error as { cause?: { code?: string } })?.cause?.code === "23503") return "not_found" as const;
    throw error;
  });
  logger.info({
    event: "admin_picture_added",
    productId: id,
    bytes: bytes.byteLength,
    result: stored === "not_found" ? stored : "refused" in stored ? stored.refused : "ok",
  });
  if (stored === "not_found") redirect("/admin/products?result=not_found");
  if ("refused" in stored) redirect(`/admin/products/${id}?picture=${stored.refused}#pictures`);
  redirect(`/admin/products/${id}?result=picture_added#pictures`);
}

/** "Remove" a picture (form fields `id`, `position`). */
export async function removePictureAction(form: FormData): Promise<void> {
  const admin = await requireAdmin();
  const id = parseProductId(form.get("id"));
  const given = form.get("position");
  const position = typeof given === "string" && /^\d{1,9}$/.test(given) ? Number(given) : NaN;
  if (id === undefined) redirect("/admin/products?result=not_found");
  const removed = Number.isSafeInteger(position) && (await removePicture(getDb(), id, position, admin.email));
  logger.info({ event: "admin_picture_removed", productId: id, position, result: removed ? "ok" : "not_found" });
  redirect(`/admin/products/${id}?result=${removed ? "picture_removed" : "picture_gone"}#pictures`);
}
