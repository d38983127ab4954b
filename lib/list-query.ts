import { z } from "zod";
import { isStorableText } from "./db/text";

/**
 * A list's search box (`q`): trimmed, at most `max` characters. No record holds a control character, and PostgreSQL
 * refuses a NUL outright: a search with one is unreadable (dropped, and named as ignored).
 */
export function searchTextSchema(max: number) {
  return z
    .string()
    .trim()
    .max(max)
    .refine((value) => isStorableText(value) && !/\p{Cc}/u.test(value));
}

/**
 * Reads a back-office list's query string (`searchParams`) with `schema`, an object of optional fields: each field
 * is read from its first value on its own, so a value that cannot be read is dropped and its key named in `ignored`
 * (in the schema's order; the page says so) while the others still narrow the list. An empty value is no value.
 */
export function parseListQuery<Schema extends z.ZodObject>(
  schema: Schema,
  params: Record<string, string | string[] | undefined>,
): { query: z.infer<Schema>; ignored: string[] } {
  const query: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, field] of Object.entries(schema.shape)) {
    const value = params[key];
    if (value === undefined || value === "") continue;
    const parsed = field.safeParse(Array.isArray(value) ? value[0] : value);
    if (parsed.success && parsed.data !== undefined && parsed.data !== "") query[key] = parsed.data;
    else ignored.push(key);
  }
  return { query: query as z.infer<Schema>, ignored };
}
