import type { NextRequest } from "next/server";
import { formRefusedByProxy } from "@/lib/form-limit";

/**
 * The page nginx shows for a body over its `client_max_body_size` (docs/deploy/nginx.conf, `error_page 413`): the
 * shop's own 413 page for the form the browser sent, in the visitor's language, instead of nginx's bare one.
 */
export function GET(request: NextRequest): Response {
  return formRefusedByProxy(request, request.headers.get("x-nonce") ?? "");
}
