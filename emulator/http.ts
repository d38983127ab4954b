/** Small request helpers shared by the API, page and control routes. */
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { API_BASE } from "./config";
import { pickLang, type Lang } from "./i18n";

/** Waits `ms` milliseconds of real time. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The language of an API request: `?lang=ar|en`, else `Accept-Language`, else English. */
export function requestLang(c: Context): Lang {
  return pickLang(c.req.query("lang"), c.req.header("accept-language"));
}

/** Key of the rate limit: the client IP under @hono/node-server, a fixed key in-process (`app.request`). */
export function clientKey(c: Context): string {
  const env = c.env as { incoming?: unknown } | undefined;
  if (!env?.incoming) return "in-process";
  return getConnInfo(c).remote.address ?? "unknown";
}

/** Whether a path belongs to the JSON API of either environment. */
export function isApiPath(path: string): boolean {
  return Object.values(API_BASE).some((base) => path === base || path.startsWith(`${base}/`));
}

/** Largest request body the API accepts. */
export const MAX_BODY_BYTES = 64 * 1024;

export type JsonBody =
  { ok: true; body: Record<string, unknown> } | { ok: false; reason: "malformed" | "not-object" | "too-large" };

/** Reads a JSON object body. An empty body counts as `{}` (its fields are then reported missing). */
export async function readJsonObject(c: Context): Promise<JsonBody> {
  const text = await c.req.text();
  if (text.length > MAX_BODY_BYTES) return { ok: false, reason: "too-large" };
  if (text.trim() === "") return { ok: true, body: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { ok: false, reason: "not-object" };
  }
  return { ok: true, body: parsed as Record<string, unknown> };
}
