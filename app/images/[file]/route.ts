import { getDb } from "@/lib/db/client";
import { imageBytes } from "@/lib/catalog/pictures";

/**
 * `GET /images/<hash>.webp`: a stored picture (lib/catalog/pictures.ts). Its name is the hash of its bytes, so what is
 * under a URL never changes: browsers and CDNs may keep it for good.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await params;
  const hash = /^([0-9a-f]{64})\.webp$/.exec(file)?.[1];
  const bytes = hash ? await imageBytes(getDb(), hash) : undefined;
  if (!bytes) return new Response("No such image.", { status: 404, headers: { "Cache-Control": "no-store" } });
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": "image/webp",
      "Content-Length": String(bytes.byteLength),
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: `"${hash}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
