/**
 * What the log may say about a failed database call. Drizzle's error message is the whole query with its
 * parameters (`Failed query: … params: <payment token>,<session id>`), and PostgreSQL's own messages can quote a
 * value (`invalid input syntax for type …: "<value>"`), so neither is ever logged: only the error's code and the
 * operation, which say what failed and where without carrying anyone's data.
 */
export interface DbFailure {
  /**
   * PostgreSQL's SQLSTATE (`23505`, `22021`…), the system error (`ECONNREFUSED`, `ENOTFOUND`…), or one of the
   * driver's own failures: `connection_timeout`, `query_timeout`, `connection_terminated`; else `unknown`.
   */
  code: string;
  /** The statement's verb and table, e.g. `select orders`, `insert order_events`, when the error names a query. */
  operation?: string;
}

/** The driver's failures that carry no code, by their fixed messages (node-postgres). */
const DRIVER_FAILURES: [RegExp, string][] = [
  [/timeout exceeded when trying to connect/i, "connection_timeout"],
  [/query read timeout/i, "query_timeout"],
  [/connection terminated/i, "connection_terminated"],
];

/**
 * The loggable part of a database error: its code and operation, never its message or parameters. Use it as
 * `logger.error({ event, ...describeDbFailure(error) })`.
 */
export function describeDbFailure(error: unknown): DbFailure {
  let code: string | undefined;
  let operation: string | undefined;
  let message = "";
  // Drizzle wraps the driver's error in `cause`; pg's connection errors wrap the system error.
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const fields = current as Error & { code?: unknown; query?: unknown };
    if (!code && typeof fields.code === "string" && /^[A-Z0-9_]{1,32}$/.test(fields.code)) code = fields.code;
    if (!operation && typeof fields.query === "string") operation = operationOf(fields.query);
    // The innermost message is the driver's own; Drizzle's outer one quotes the query and its parameters.
    message = current.message;
  }
  code ??= DRIVER_FAILURES.find(([pattern]) => pattern.test(message))?.[1] ?? "unknown";
  return operation ? { code, operation } : { code };
}

/** `select … from "orders" …` → `select orders`: the verb and the first table, nothing of the values. */
function operationOf(query: string): string | undefined {
  const verb = /^\s*(\w+)/.exec(query)?.[1]?.toLowerCase();
  if (!verb) return undefined;
  const table =
    verb === "select"
      ? /\bfrom\s+"(\w+)"/i.exec(query)?.[1]
      : /^\s*(?:insert\s+into|update|delete\s+from)\s+"(\w+)"/i.exec(query)?.[1];
  return table ? `${verb} ${table}` : verb;
}
