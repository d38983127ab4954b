/**
 * The control API under `/__emulator/` (JSON): faults, clock, payments, webhook deliveries, settings, reset and
 * health. It does not exist on the real service; tests, benchmarks and e2e scripts use it to steer the emulator.
 */
import { Hono, type Context } from "hono";
import { parseFault } from "../faults";
import { readJsonObject } from "../http";
import type { EmulatorState } from "../state";
import type { Payment } from "../store";

const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;
const MAX_LATENCY_MS = 60_000;

/** A payment as the control API shows it (no access token, no internal fingerprint). */
function paymentView(payment: Payment, state: EmulatorState) {
  const merchant = state.merchants.find((candidate) => candidate.id === payment.merchantId);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    token: payment.token,
    status: payment.status,
    mode: payment.mode,
    merchant: merchant?.name ?? payment.merchantId,
    merchantId: payment.merchantId,
    amount: payment.amount,
    currency: payment.currency,
    custom: payment.custom,
    full_name: payment.full_name,
    email: payment.email,
    phone: payment.phone,
    payment_gateway: payment.payment_gateway,
    gatewayUsed: payment.gatewayUsed,
    lang: payment.lang,
    return_url: payment.return_url,
    cancel_url: payment.cancel_url,
    payment_url: payment.payment_url,
    createdAt: iso(payment.createdAt),
    expiresAt: iso(payment.expiresAt),
    completedAt: iso(payment.completedAt),
  };
}

const clockView = (state: EmulatorState) => ({
  offsetSeconds: state.clock.offsetMs() / 1000,
  now: new Date(state.clock.now()).toISOString(),
  nowMs: state.clock.now(),
});

const badRequest = (c: Context, error: string) => c.json({ error }, 400);

async function jsonBody(c: Context): Promise<Record<string, unknown> | Response> {
  const parsed = await readJsonObject(c);
  return parsed.ok ? parsed.body : badRequest(c, "Send a JSON object body.");
}

export function controlRoutes(state: EmulatorState): Hono {
  const control = new Hono();

  control.get("/health", (c) => c.json({ ok: true }));

  control.get("/faults", (c) => c.json({ faults: state.faults.list() }));
  control.post("/faults", async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const parsed = parseFault(body);
    if (!parsed.ok) return badRequest(c, parsed.error);
    return c.json({ fault: state.faults.add(parsed.fault), faults: state.faults.list() }, 201);
  });
  control.delete("/faults", (c) => c.json({ cleared: state.faults.clear() }));

  control.get("/clock", (c) => c.json(clockView(state)));
  control.post("/clock", async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const seconds = body.advanceSeconds;
    if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_ADVANCE_SECONDS) {
      return badRequest(c, "advanceSeconds must be a number of seconds ≥ 0 (the clock only moves forward).");
    }
    const purged = state.advanceClock(seconds);
    return c.json({ ...clockView(state), purged });
  });

  control.get("/payments", (c) => {
    state.purge();
    const custom = c.req.query("custom");
    const payments = [...state.store.payments.values()]
      .filter((payment) => custom === undefined || payment.custom === custom)
      .map((payment) => paymentView(payment, state));
    return c.json({ payments });
  });
  control.get("/payments/:token", (c) => {
    const payment = state.store.payment(c.req.param("token"), state.clock.now());
    return payment ? c.json({ payment: paymentView(payment, state) }) : c.json({ error: "Payment not found." }, 404);
  });

  control.get("/webhooks", (c) => c.json({ deliveries: state.webhooks.list(c.req.query("token")) }));
  control.post("/webhooks/:id/replay", async (c) => {
    const id = Number(c.req.param("id"));
    const attempt = Number.isSafeInteger(id) ? await state.webhooks.replay(id) : undefined;
    return attempt ? c.json({ attempt }) : c.json({ error: "Webhook delivery not found." }, 404);
  });

  control.get("/config", (c) => c.json({ config: { ...state.settings } }));
  control.post("/config", async (c) => {
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const { rateLimit, latencyMs, payOnView } = body;
    if (rateLimit !== undefined && (!Number.isInteger(rateLimit) || (rateLimit as number) < 0)) {
      return badRequest(c, "rateLimit must be an integer ≥ 0 (requests a minute; 0 disables the limit).");
    }
    if (
      latencyMs !== undefined &&
      (typeof latencyMs !== "number" || !Number.isFinite(latencyMs) || latencyMs < 0 || latencyMs > MAX_LATENCY_MS)
    ) {
      return badRequest(c, `latencyMs must be a number from 0 to ${MAX_LATENCY_MS}.`);
    }
    if (payOnView !== undefined && typeof payOnView !== "boolean") {
      return badRequest(c, "payOnView must be true or false.");
    }
    if (rateLimit !== undefined) {
      state.settings.rateLimit = rateLimit as number;
      state.limiter.clear();
    }
    if (latencyMs !== undefined) state.settings.latencyMs = latencyMs;
    if (payOnView !== undefined) state.settings.payOnView = payOnView;
    return c.json({ config: { ...state.settings } });
  });

  control.post("/reset", (c) => {
    state.reset();
    return c.json({ ok: true });
  });

  return control;
}
