import "server-only";
import { createHash } from "node:crypto";
import { and, eq, inArray, isNull, max, notExists, or } from "drizzle-orm";
import sharp, { type OutputInfo } from "sharp";
import type { Db, DbOrTx } from "../db/client";
import { describeDbFailure } from "../db/errors";
import { images, productPictures, products } from "../db/schema";
import { recordCatalogEvent } from "./editing";

/**
 * Product pictures: an upload is checked, re-encoded with `sharp` (the image library Next.js itself uses) as WebP in
 * two sizes with every piece of metadata stripped (a phone photo's location included), and stored in the database by
 * the hash of its bytes, so a serverless host with no disk can serve it under one URL (app/images/[file]/route.ts)
 * for as long as a product shows it: an image no product shows any more is deleted with the change that let it go, and
 * its URL answers 404 from then on. docs/catalogue.md, "Pictures", says how to move them to S3-compatible storage.
 */

/** The largest upload accepted. */
export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
/** The most pixels an upload may have: more is refused before it is decoded (a decompression bomb is a small file). */
const MAX_PICTURE_PIXELS = 40_000_000;
/** The formats accepted: photographs and drawings, never SVG (a document that can carry script). */
const FORMATS = new Set(["jpeg", "png", "webp", "avif", "gif", "heif"]);
/** The two sizes kept: the product page's (fit inside), and the lists' (a square). */
const SIZES = { large: 1200, small: 400 } as const;

/** Why an upload was refused: keys of `admin.products.pictures.problems` in the message catalogues. */
export type PictureProblem = "empty" | "tooLarge" | "notImage" | "svg" | "tooManyPixels";

/** A picture stored: the hashes of its two sizes. */
export interface StoredPicture {
  large: string;
  small: string;
}

/**
 * Checks and re-encodes an upload, and stores its two sizes (once: by hash).
 * @returns the stored picture, or why it was refused (nothing is stored then).
 */
export async function storePicture(
  db: DbOrTx,
  bytes: Uint8Array,
): Promise<StoredPicture | { refused: PictureProblem }> {
  if (bytes.byteLength === 0) return { refused: "empty" };
  if (bytes.byteLength > MAX_PICTURE_BYTES) return { refused: "tooLarge" };
  // The header only: the format and the size it claims, before a single pixel is decoded.
  const metadata = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  if (!metadata?.format) return { refused: "notImage" };
  if (metadata.format === "svg") return { refused: "svg" };
  if (!FORMATS.has(metadata.format)) return { refused: "notImage" };
  if (!metadata.width || !metadata.height || metadata.width * metadata.height > MAX_PICTURE_PIXELS)
    return { refused: "tooManyPixels" };

  // Decoded with the pixel limit as a second guard (the header may lie), rotated as the camera held it; sharp writes
  // no metadata unless asked to.
  const decode = () => sharp(bytes, { limitInputPixels: MAX_PICTURE_PIXELS, failOn: "error" }).rotate();
  let encoded: { data: Buffer; info: OutputInfo }[];
  try {
    encoded = await Promise.all([
      decode()
        .resize(SIZES.large, SIZES.large, { fit: "inside", withoutEnlargement: true })
        .webp({ quality: 82 })
        .toBuffer({ resolveWithObject: true }),
      decode()
        .resize(SIZES.small, SIZES.small, { fit: "cover" })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true }),
    ]);
  } catch (error) {
    // The header promised an image the data is not (truncated, corrupt), or more pixels than it said.
    return { refused: error instanceof Error && /pixel limit/i.test(error.message) ? "tooManyPixels" : "notImage" };
  }
  await saveImages(db, encoded);
  const [large, small] = encoded.map(({ data }) => hashOf(data)) as [string, string];
  return { large, small };
}

const hashOf = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function saveImages(db: DbOrTx, encoded: { data: Buffer; info: OutputInfo }[]): Promise<void> {
  await db
    .insert(images)
    .values(
      encoded.map(({ data, info }) => ({ hash: hashOf(data), width: info.width, height: info.height, bytes: data })),
    )
    .onConflictDoNothing();
}

/**
 * Adds an uploaded picture after a product's others, with its audit row (`picture_added`).
 * @returns the stored picture, or why the upload was refused.
 */
export async function addPicture(
  db: Db,
  productId: number,
  bytes: Uint8Array,
  by: string,
): Promise<StoredPicture | { refused: PictureProblem }> {
  return db.transaction(async (tx) => {
    const stored = await storePicture(tx, bytes);
    if ("refused" in stored) return stored;
    const [last] = await tx
      .select({ position: max(productPictures.position) })
      .from(productPictures)
      .where(eq(productPictures.productId, productId));
    const position = (last?.position ?? -1) + 1;
    await tx.insert(productPictures).values({ productId, position, ...stored });
    await recordCatalogEvent(tx, productId, "picture_added", by, { position, ...stored });
    return stored;
  });
}

/** The most files one bulk upload takes ({@link addPicturesBySlug}); more are reported as not uploaded. */
export const MAX_BULK_PICTURES = 20;

/** An uploaded file of a bulk upload: its name as the browser gave it, and its bytes. */
export interface NamedFile {
  name: string;
  bytes: Uint8Array;
}

/**
 * What a bulk upload did with one file: `added` to the product its name names; `noProduct` (no product, or an archived
 * one, has that slug); `tooMany` (past {@link MAX_BULK_PICTURES} files); or why the picture was refused, as one upload
 * refuses it ({@link PictureProblem}).
 */
export type BulkPictureResult = { file: string; slug: string } & (
  { outcome: "added"; productId: number } | { outcome: "noProduct" | "tooMany" | PictureProblem }
);

/**
 * The slug a file's name names: its name without folders and without its last extension, in lower case
 * (`Olive-Oil.JPG` → `olive-oil`).
 */
export function slugOfFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  return base
    .replace(/\.[^.]*$/, "")
    .trim()
    .toLowerCase();
}

/**
 * Adds many pictures at once, each to the product whose slug is its file's name (`olive-oil.jpg` → the product
 * `olive-oil`), after that product's other pictures, each as one upload ({@link addPicture}: the same checks, its own
 * transaction and audit row), one after the other so that one upload never decodes more than one picture at a time.
 * Archived products (lib/catalog/deletion.ts) are not matched. The first {@link MAX_BULK_PICTURES} files are read; the
 * files' size together is bounded before this runs (lib/form-limit.ts, `MAX_BULK_PICTURES_FORM_BYTES`).
 * @param files the files in the order the form sent them.
 * @returns one result per file, in the same order.
 */
export async function addPicturesBySlug(db: Db, files: NamedFile[], by: string): Promise<BulkPictureResult[]> {
  const slugs = [...new Set(files.slice(0, MAX_BULK_PICTURES).map((file) => slugOfFileName(file.name)))];
  const matched =
    slugs.length === 0
      ? []
      : await db
          .select({ id: products.id, slug: products.slug })
          .from(products)
          .where(and(inArray(products.slug, slugs), isNull(products.archivedAt)));
  const idOf = new Map(matched.map((row) => [row.slug, row.id]));
  const results: BulkPictureResult[] = [];
  for (const [index, { name, bytes }] of files.entries()) {
    const slug = slugOfFileName(name);
    const productId = idOf.get(slug);
    if (index >= MAX_BULK_PICTURES) results.push({ file: name, slug, outcome: "tooMany" });
    else if (productId === undefined) results.push({ file: name, slug, outcome: "noProduct" });
    else {
      const stored = await addPicture(db, productId, bytes, by).catch((error: unknown) => {
        // Deleted since it was matched: its pictures' foreign key refuses the picture.
        if (describeDbFailure(error).code === "23503") return { refused: "noProduct" as const };
        throw error;
      });
      results.push(
        "refused" in stored
          ? { file: name, slug, outcome: stored.refused }
          : { file: name, slug, outcome: "added", productId },
      );
    }
  }
  return results;
}

/**
 * Removes a product's picture, with its audit row (`picture_removed`), and deletes its images in the same transaction
 * when no product shows them any more ({@link deleteUnusedImages}).
 * @returns whether there was such a picture.
 */
export async function removePicture(db: Db, productId: number, position: number, by: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(productPictures)
      .where(and(eq(productPictures.productId, productId), eq(productPictures.position, position)))
      .returning();
    if (!removed) return false;
    await recordCatalogEvent(tx, productId, "picture_removed", by, { position, large: removed.large });
    await deleteUnusedImages(tx, [removed.large, removed.small]);
    return true;
  });
}

/**
 * Deletes the stored images no product shows: those of `hashes`, or every one when `hashes` is omitted (the daily
 * clean-up, lib/retention.ts, which also catches what was left before images were deleted with their last picture).
 * Runs in a savepoint of the caller's transaction (or a transaction of its own): an image that another checkout of the
 * back office is adding to a product at this very moment is kept (its foreign key refuses the delete), and the
 * caller's change still commits.
 * @returns how many images it deleted.
 * @throws the database's error for anything but "still in use".
 */
export async function deleteUnusedImages(db: DbOrTx, hashes?: string[]): Promise<number> {
  if (hashes?.length === 0) return 0;
  const shown = db
    .select({ hash: productPictures.large })
    .from(productPictures)
    .where(or(eq(productPictures.large, images.hash), eq(productPictures.small, images.hash)));
  try {
    return await db.transaction(async (tx) => {
      const deleted = await tx
        .delete(images)
        .where(and(hashes ? inArray(images.hash, hashes) : undefined, notExists(shown)));
      return deleted.rowCount ?? 0;
    });
  } catch (error) {
    if (describeDbFailure(error).code === "23503") return 0; // a picture was added meanwhile: the image stays
    throw error;
  }
}

/** A stored image's bytes by hash, for the image route; `undefined` for none. */
export async function imageBytes(db: DbOrTx, hash: string): Promise<Buffer | undefined> {
  if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
  const [row] = await db.select({ bytes: images.bytes }).from(images).where(eq(images.hash, hash));
  return row?.bytes;
}
