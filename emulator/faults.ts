/**
 * Queued faults (control API `POST /__emulator/faults`): the next N requests of a route fail in a chosen way.
 */
import type { Failure } from "./failures";

export type FaultRoute = "token" | "create";
export type FaultKind = "status" | "delay" | "html" | "malformed" | "drop" | "foreign_url";

/** A queued fault, as listed by `GET /__emulator/faults`. */
export interface Fault {
  id: number;
  route: FaultRoute;
  kind: FaultKind;
  status?: number;
  delayMs?: number;
  /** Requests it still applies to. */
  remaining: number;
}

const ROUTES: readonly FaultRoute[] = ["token", "create"];
const KINDS: readonly FaultKind[] = ["status", "delay", "html", "malformed", "drop", "foreign_url"];
/** Host a `foreign_url` fault puts in `payment_url`: a tampered answer that a client must refuse to redirect to. */
export const FOREIGN_PAYMENT_HOST = "https://attacker.example";
/** Statuses a `status` or `html` fault may answer with; `malformed` also allows 200 (its default). */
export const FAULT_STATUSES: readonly number[] = [400, 401, 403, 404, 409, 429, 500, 502, 503, 504];
const MAX_DELAY_MS = 120_000;
const MAX_COUNT = 10_000;

export type ParsedFault = { ok: true; fault: Omit<Fault, "id"> } | { ok: false; error: string };

/** Validates the body of `POST /__emulator/faults`. */
export function parseFault(body: unknown): ParsedFault {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return { ok: false, error: "Send a JSON object: { route, kind, status?, delayMs?, count? }." };
  }
  const { route, kind, status, delayMs, count = 1 } = body as Record<string, unknown>;
  if (!ROUTES.includes(route as FaultRoute)) return { ok: false, error: `route must be one of ${ROUTES.join(", ")}.` };
  if (!KINDS.includes(kind as FaultKind)) return { ok: false, error: `kind must be one of ${KINDS.join(", ")}.` };
  if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_COUNT) {
    return { ok: false, error: `count must be an integer from 1 to ${MAX_COUNT}.` };
  }
  if (kind === "foreign_url" && route !== "create") return { ok: false, error: "kind foreign_url applies to route create only." };
  const fault: Omit<Fault, "id"> = { route: route as FaultRoute, kind: kind as FaultKind, remaining: count as number };

  if (kind === "status" || kind === "html" || kind === "malformed") {
    const fallback = kind === "malformed" ? 200 : 500;
    const allowed = kind === "malformed" ? [200, ...FAULT_STATUSES] : FAULT_STATUSES;
    const value = status ?? fallback;
    if (!allowed.includes(value as number)) return { ok: false, error: `status must be one of ${allowed.join(", ")}.` };
    fault.status = value as number;
  } else if (status !== undefined) {
    return { ok: false, error: `status applies to kinds status, html and malformed only.` };
  }

  if (kind === "delay") {
    if (typeof delayMs !== "number" || !Number.isFinite(delayMs) || delayMs < 0 || delayMs > MAX_DELAY_MS) {
      return { ok: false, error: `delayMs must be a number of milliseconds from 0 to ${MAX_DELAY_MS}.` };
    }
    fault.delayMs = delayMs;
  } else if (delayMs !== undefined) {
    return { ok: false, error: "delayMs applies to kind delay only." };
  }
  return { ok: true, fault };
}

/**
 * Rewrites a successful create answer so that its `payment_url` points at {@link FOREIGN_PAYMENT_HOST} (the payment
 * itself is created as usual): what a tampered or compromised answer would look like.
 */
export async function withForeignPaymentUrl(response: Response): Promise<Response> {
  if (response.status !== 200) return response;
  const body = (await response.json()) as { data?: { payment_url?: string } };
  if (body.data?.payment_url) {
    const url = new URL(body.data.payment_url);
    body.data.payment_url = `${FOREIGN_PAYMENT_HOST}${url.pathname}`;
  }
  return Response.json(body, { status: 200 });
}

/** The failure a fault causes (`foreign_url` is not a failure: it lets the call through, see withForeignPaymentUrl). */
export function faultFailure(fault: Fault & { kind: Exclude<FaultKind, "foreign_url"> }): Failure {
  switch (fault.kind) {
    case "delay":
      return { kind: "delay", delayMs: fault.delayMs ?? 0 };
    case "drop":
      return { kind: "drop" };
    default:
      return { kind: fault.kind, status: fault.status ?? 500 };
  }
}

export interface FaultQueue {
  add(fault: Omit<Fault, "id">): Fault;
  /** Uses up one request of the first fault queued for `route`, if any. */
  take(route: FaultRoute): Fault | undefined;
  list(): Fault[];
  clear(): number;
}

/** Creates an empty queue. */
export function createFaultQueue(): FaultQueue {
  let faults: Fault[] = [];
  let nextId = 1;
  return {
    add(fault) {
      const queued = { id: nextId++, ...fault };
      faults.push(queued);
      return { ...queued };
    },
    take(route) {
      const fault = faults.find((f) => f.route === route);
      if (!fault) return undefined;
      fault.remaining--;
      if (fault.remaining <= 0) faults = faults.filter((f) => f !== fault);
      return { ...fault };
    },
    list: () => faults.map((f) => ({ ...f })),
    clear() {
      const count = faults.length;
      faults = [];
      return count;
    },
  };
}
