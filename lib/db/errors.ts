import { DrizzleQueryError } from "drizzle-orm";

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

/**
 * A failed query as the shop lets it travel: thrown to its caller and, when nobody catches it (a back-office page
 * while the database is down), printed by Next.js with its stack, its fields and its causes. Drizzle's own error
 * carries the parameters in its message and fields, and its cause, the driver's error, can quote a value in
 * PostgreSQL's message or `detail` (`Key (email)=(…) already exists`); this one carries none of that, only what
 * {@link describeDbFailure} gives and, for a refused write, the constraint's name. Every query made through
 * `lib/db/client.ts` fails with one of these (see {@link withoutParameters}).
 */
export class DbQueryError extends Error {
  override readonly name = "DbQueryError";
  /** As in {@link DbFailure}: `23505`, `ECONNREFUSED`, `query_timeout`… */
  declare readonly code: string;
  /** As in {@link DbFailure}: `select orders`, `insert order_events`… */
  declare readonly operation?: string;
  /** The constraint a refused write broke (a schema name, never a value), e.g. `orders_paymentToken_unique`. */
  declare readonly constraint?: string;
  /**
   * `{ code, constraint }`, where Drizzle's error keeps the driver's error: `error.cause.code === "23505"` still tells
   * a unique violation, as with Drizzle's own.
   */
  declare readonly cause: { code: string; constraint?: string };

  constructor({ code, operation, constraint }: DbFailure & { constraint?: string }) {
    super(`${operation ?? "query"} failed: ${code}${constraint ? ` (${constraint})` : ""}`, {
      cause: constraint ? { code, constraint } : { code },
    });
    // Only the fields it has: Next.js prints every one.
    Object.assign(this, { code }, operation && { operation }, constraint && { constraint });
  }
}

/**
 * A failed query's error reduced to a {@link DbQueryError}: its code, operation and constraint, nothing of its
 * parameters or messages. Anything else (not an error of a query) is returned as it is.
 */
export function withoutParameters(error: unknown): unknown {
  if (!(error instanceof DrizzleQueryError)) return error;
  const driverError = error.cause as { constraint?: unknown } | undefined;
  const constraint = driverError?.constraint;
  return new DbQueryError({
    ...describeDbFailure(error),
    ...(typeof constraint === "string" && SAFE_NAME.test(constraint) ? { constraint } : {}),
  });
}

/** An SQL identifier as PostgreSQL reports it: the shop's names are short and plain. */
const SAFE_NAME = /^[A-Za-z0-9_]{1,63}$/;

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
    // Already reduced (lib/db/client.ts): what it kept is the answer.
    if (current instanceof DbQueryError)
      return current.operation ? { code: current.code, operation: current.operation } : { code: current.code };
    const fields = current as Error & { code?: unknown; query?: unknown };
    if (!code && typeof fields.code === "string" && /^[A-Z0-9_]{1,32}$/.test(fields.code)) code = fields.code;
    if (!operation && typeof fields.query === "string") operation = operationOf(fields.query);
    // The innermost message is the driver's own; Drizzle's outer one quotes the query and its parameters.
    message = current.message;
  }
  code ??= DRIVER_FAILURES.find(([pattern]) => pattern.test(message))?.[1] ?? "unknown";
  return operation ? { code, operation } : { code };
}

/**
 * The failures that say the database cannot be used just now, rather than that a statement was wrong: the driver's
 * own (refused, unreachable, timed out, dropped: `ECONNREFUSED`, `connection_terminated`…), PostgreSQL's connection
 * exceptions (class 08), insufficient resources (53: too many connections), operator intervention (57: a statement
 * cancelled, the server shutting down), and a database that refuses connections (55000) or is gone (3D000).
 */
const UNAVAILABLE = /^(08|53|57)|^(55000|3D000|E[A-Z_]+|connection_timeout|connection_terminated|query_timeout)$/;

/** Whether an error says that the database cannot be reached or used just now (see above), by its code. */
export const isDbUnavailable = (error: unknown): boolean => UNAVAILABLE.test(describeDbFailure(error).code);

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
