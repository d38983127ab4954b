import { crc32, deflateSync } from "node:zlib";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { catalogEvents, images, orderLines, orders, productPictures } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import { createProduct, productInputSchema } from "./editing";
import { deleteProduct } from "./deletion";
import {
  addPicture,
  addPicturesBySlug,
  imageBytes,
  MAX_BULK_PICTURES,
  MAX_PICTURE_BYTES,
  removePicture,
  slugOfFileName,
} from "./pictures";

/**
 * Pictures uploaded in the back office (lib/catalog/pictures.ts) against a real database: what is refused, with which
 * message, storing nothing; what is kept of what is accepted.
 */

const t = setUpTestDatabase();
const ADMIN = "owner@shop.ly";

async function product(slug: string) {
  const input = productInputSchema.parse({ slug, nameEn: "Bowl", nameAr: "وعاء", price: "20" });
  const created = await createProduct(t.db, input, ADMIN);
  if (!created.ok) throw new Error(created.problem);
  return created.id;
}

const stored = async () => {
  const [[pictures], [rows]] = await Promise.all([
    t.db.select({ n: count() }).from(images),
    t.db.select({ n: count() }).from(productPictures),
  ]);
  return { images: pictures!.n, pictures: rows!.n };
};

/** A PNG of `width` × `height` whose header says so, and whose pixel data is a few bytes: a decompression bomb. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, not interlaced
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc(64 * 1024))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("a picture uploaded", () => {
  it.each([
    [
      "a 50-megapixel PNG",
      () =>
        sharp({ create: { width: 7100, height: 7100, channels: 3, background: "#a0522d" } })
          .png()
          .toBuffer(),
      "tooManyPixels",
    ],
    ["a text file named .jpg", async () => Buffer.from("These are not the pixels you are looking for.\n"), "notImage"],
    [
      "an SVG with a script",
      async () =>
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
        ),
      "svg",
    ],
    [
      "a decompression bomb (a PNG of 200 bytes claiming 60,000 × 60,000 pixels)",
      async () => pngClaiming(60_000, 60_000),
      "tooManyPixels",
    ],
    [
      "a 6 MB JPEG",
      async () => {
        const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#fff" } })
          .jpeg()
          .toBuffer();
        // A real JPEG with data after its end, as some cameras write: decoders read it, its size is 6 MB.
        return Buffer.concat([jpeg, Buffer.alloc(6 * 1024 * 1024 - jpeg.length)]);
      },
      "tooLarge",
    ],
    ["an empty file (no file chosen)", async () => Buffer.alloc(0), "empty"],
  ])("is refused with its message, storing nothing: %s", async (_name, make, problem) => {
    const id = await product(`refused-${problem.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}`);
    const bytes = await make();
    const before = await stored();
    expect(await addPicture(t.db, id, bytes, ADMIN)).toEqual({ refused: problem });
    expect(await stored()).toEqual(before);
    const events = await t.db.select().from(catalogEvents).where(eq(catalogEvents.productId, id));
    expect(events.map((event) => event.type)).toEqual(["created"]);
  });

  it("is kept as WebP in two sizes, without its metadata, under the hash of its bytes; removing it is audited", async () => {
    const id = await product("kept-picture");
    const photo = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: "#2e8b57" } })
      .jpeg()
      .withExif({ IFD0: { Artist: "Secret Person", Copyright: "Home address" } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    expect(photo.byteLength).toBeLessThan(MAX_PICTURE_BYTES);

    const picture = await addPicture(t.db, id, photo, ADMIN);
    if ("refused" in picture) throw new Error(picture.refused);
    const large = await imageBytes(t.db, picture.large);
    const small = await imageBytes(t.db, picture.small);
    const [largeMeta, smallMeta] = await Promise.all([sharp(large).metadata(), sharp(small).metadata()]);
    expect([largeMeta.format, largeMeta.width, largeMeta.height]).toEqual(["webp", 1200, 800]);
    expect([smallMeta.format, smallMeta.width, smallMeta.height]).toEqual(["webp", 400, 400]);
    expect([largeMeta.exif, smallMeta.exif, largeMeta.icc, largeMeta.xmp]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(large!.includes(Buffer.from("Secret Person"))).toBe(false);

    // The same photo again is stored once (its hash), shown twice.
    expect(await addPicture(t.db, id, photo, ADMIN)).toEqual(picture);
    expect((await stored()).pictures).toBeGreaterThanOrEqual(2);
    expect(await removePicture(t.db, id, 0, ADMIN)).toBe(true);
    expect(await removePicture(t.db, id, 0, ADMIN)).toBe(false);
    const events = await t.db.select().from(catalogEvents).where(eq(catalogEvents.productId, id));
    expect(events.map((event) => event.type)).toEqual(["created", "picture_added", "picture_added", "picture_removed"]);
  });

  it("is deleted with the last picture that shows it, and no sooner", async () => {
    const [first, second] = [await product("shared-first"), await product("shared-second")];
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#8b2e57" } })
      .png()
      .toBuffer();
    const picture = await addPicture(t.db, first, photo, ADMIN);
    if ("refused" in picture) throw new Error(picture.refused);
    expect(await addPicture(t.db, second, photo, ADMIN)).toEqual(picture);

    // Still shown by the second product: kept, and served.
    expect(await removePicture(t.db, first, 0, ADMIN)).toBe(true);
    expect(await imageBytes(t.db, picture.large)).toBeDefined();
    expect(await imageBytes(t.db, picture.small)).toBeDefined();

    // Shown by nobody: both sizes are gone, so their URLs answer 404 (app/images/[file]/route.ts).
    expect(await removePicture(t.db, second, 0, ADMIN)).toBe(true);
    expect(await imageBytes(t.db, picture.large)).toBeUndefined();
    expect(await imageBytes(t.db, picture.small)).toBeUndefined();
  });
});

describe("pictures uploaded together, matched by file name", () => {
  const photo = (color: string, width = 640) =>
    sharp({ create: { width, height: (width * 3) / 4, channels: 3, background: color } })
      .jpeg()
      .toBuffer();
  const picturesOf = (productId: number) =>
    t.db
      .select()
      .from(productPictures)
      .where(eq(productPictures.productId, productId))
      .orderBy(productPictures.position);

  it("names a file's slug by its name without folders and extension, in lower case", () => {
    expect(slugOfFileName("Olive-Oil.JPG")).toBe("olive-oil");
    expect(slugOfFileName("C:\\photos\\mint-tea-set.jpeg")).toBe("mint-tea-set");
    expect(slugOfFileName("dates.v2.png")).toBe("dates.v2");
    expect(slugOfFileName("no-extension")).toBe("no-extension");
  });

  it("adds each to its product after its pictures, with one upload's checks, and says what became of every file", async () => {
    const oil = await product("bulk-olive-oil");
    const bowl = await product("bulk-bowl");
    await addPicture(t.db, oil, await photo("#556b2f"), ADMIN);
    const retired = await product("bulk-retired");
    // An order names it, so "Delete" archives it: an archived product takes no pictures from a bulk upload.
    await t.db.insert(orders).values({
      id: "ord_bulkretired0000",
      sessionId: "s",
      fingerprint: "f",
      status: "started",
      amountMinor: 2_000,
      currency: "LYD",
      locale: "en",
      claimExpiresAt: new Date(Date.now() - 3_600_000),
    });
    await t.db.insert(orderLines).values({
      orderId: "ord_bulkretired0000",
      position: 0,
      productId: retired,
      productSlug: "bulk-retired",
      name: "Bowl",
      unitMinor: 2_000,
      quantity: 1,
    });
    expect(await deleteProduct(t.db, retired, ADMIN)).toBe("archived");

    const results = await addPicturesBySlug(
      t.db,
      [
        { name: "Bulk-Olive-Oil.jpg", bytes: await photo("#808000") },
        { name: "bulk-bowl.png", bytes: await photo("#cd853f") },
        { name: "bulk-vase.jpg", bytes: await photo("#4169e1") },
        { name: "bulk-retired.jpg", bytes: await photo("#696969") },
        { name: "bulk-bowl.jpg", bytes: new Uint8Array(MAX_PICTURE_BYTES + 1) },
        { name: "bulk-bowl.txt", bytes: new TextEncoder().encode("not a picture") },
      ],
      ADMIN,
    );
    expect(results.map(({ file, slug, outcome }) => [file, slug, outcome])).toEqual([
      ["Bulk-Olive-Oil.jpg", "bulk-olive-oil", "added"],
      ["bulk-bowl.png", "bulk-bowl", "added"],
      ["bulk-vase.jpg", "bulk-vase", "noProduct"],
      ["bulk-retired.jpg", "bulk-retired", "noProduct"],
      ["bulk-bowl.jpg", "bulk-bowl", "tooLarge"],
      ["bulk-bowl.txt", "bulk-bowl", "notImage"],
    ]);
    expect((await picturesOf(oil)).map((picture) => picture.position)).toEqual([0, 1]);
    expect(await picturesOf(bowl)).toHaveLength(1);
    expect(await picturesOf(retired)).toHaveLength(0);
    // Each added picture is audited as one upload is.
    const added = await t.db.select().from(catalogEvents).where(eq(catalogEvents.productId, bowl));
    expect(added.map((event) => event.type)).toEqual(["created", "picture_added"]);
  });

  it(`reads at most ${MAX_BULK_PICTURES} files, and says the others were not uploaded`, async () => {
    const id = await product("bulk-many");
    const bytes = await photo("#daa520", 64);
    const files = Array.from({ length: MAX_BULK_PICTURES + 2 }, () => ({ name: "bulk-many.jpg", bytes }));
    const outcomes = (await addPicturesBySlug(t.db, files, ADMIN)).map((result) => result.outcome);
    expect(outcomes.filter((outcome) => outcome === "added")).toHaveLength(MAX_BULK_PICTURES);
    expect(outcomes.slice(MAX_BULK_PICTURES)).toEqual(["tooMany", "tooMany"]);
    expect(await picturesOf(id)).toHaveLength(MAX_BULK_PICTURES);
  });
});
