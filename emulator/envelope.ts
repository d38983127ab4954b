/**
 * The response envelope of every API answer (docs/payment-service.md, "The response envelope",
 * "Errors and what the shop does"):
 * `{ message: { code, success | error }, data, type }`, with the HTTP status equal to `message.code`.
 */

export interface SuccessEnvelope<T> {
  message: { code: 200; success: string[] };
  data: T;
  type: "success";
}

interface ErrorEnvelope {
  message: { code: number; error: string[] };
  data: Record<string, never>;
  type: "error";
}

/** A success envelope, e.g. `success({ token, payment_url }, "CREATED")`. */
export function success<T>(data: T, word: "SUCCESS" | "CREATED" = "SUCCESS"): SuccessEnvelope<T> {
  return { message: { code: 200, success: [word] }, data, type: "success" };
}

/** An error envelope with one entry per message. */
function failure(code: number, messages: string[]): ErrorEnvelope {
  return { message: { code, error: messages }, data: {}, type: "error" };
}

/** A complete JSON error response: status, envelope and any extra headers (e.g. `Retry-After`). */
export function errorResponse(code: number, messages: string[], headers: Record<string, string> = {}): Response {
  return Response.json(failure(code, messages), { status: code, headers });
}
