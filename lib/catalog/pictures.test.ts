import { crc32, deflateSync } from "node:zlib";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { catalogEvents, images, productPictures } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import { createProduct, productInputSchema } from "./editing";
import { addPicture, imageBytes, MAX_PICTURE_BYTES, removePicture } from "./pictures";

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
