"use server";

import { getTranslations } from "next-intl/server";
import { requireAdmin } from "@/lib/admin/auth";
import { addPicturesBySlug, MAX_BULK_PICTURES } from "@/lib/catalog/pictures";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/log";

/** What the bulk picture form shows after an upload: a summary (or why nothing was read), and a line per file. */
export interface BulkPicturesState {
  message?: string;
  /** Whether the message reports an upload (a status), or says there was nothing to upload (an alert). */
  done?: boolean;
  rows: { file: string; text: string; added: boolean }[];
}

/**
 * "Upload the pictures" (form field `pictures`, many files): each file is added to the product whose slug is its name,
 * with the checks of one upload (lib/catalog/pictures.ts, `addPicturesBySlug`); the form then says what happened to
 * each file. The proxy has already refused a form over the bulk upload's limit (lib/form-limit.ts).
 */
export async function addPicturesAction(_previous: BulkPicturesState, form: FormData): Promise<BulkPicturesState> {
  const admin = await requireAdmin();
  const t = await getTranslations("admin.products.bulkPictures");
  // A file input with nothing chosen still sends one nameless, empty file.
  const chosen = form.getAll("pictures").filter((value): value is File => value instanceof File && value.name !== "");
  if (chosen.length === 0) return { message: t("none"), rows: [] };
  const files = await Promise.all(
    chosen.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })),
  );
  const results = await addPicturesBySlug(getDb(), files, admin.email);
  const added = results.filter((result) => result.outcome === "added").length;
  logger.info({ event: "admin_pictures_bulk", files: results.length, added });
  return {
    done: true,
    message: t("summary", { added, refused: results.length - added }),
    rows: results.map((result) => ({
      file: result.file,
      added: result.outcome === "added",
      text: t(`outcomes.${result.outcome}`, { slug: result.slug, max: MAX_BULK_PICTURES }),
    })),
  };
}
