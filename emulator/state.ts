/**
 * Everything one emulator instance holds: configuration, clock, stores and the runtime settings the control API
 * can change. Routes receive this object; tests can inspect it.
 */
import { createAccessTokenSigner, type AccessTokenSigner } from "./access-tokens";
import { createClock, type Clock } from "./clock";
import { defaultMerchants, SLOW_MAGIC_DELAY_MS, type Merchant } from "./config";
import { createFaultQueue, type FaultQueue } from "./faults";
import { createRateLimiter, type RateLimiter } from "./rate-limit";
import { createStore, type PurgeResult, type Store } from "./store";
import { createWebhooks, type WebhookOptions, type Webhooks } from "./webhooks";

/** Settings the control API can change at runtime (`POST /__emulator/config`). */
interface Settings {
  /** API requests a minute per client IP; 0 disables the limit. */
  rateLimit: number;
  /** Fixed delay added to every API call (token and create), in milliseconds. */
  latencyMs: number;
  /**
   * A payment is paid (and its webhook sent) as soon as its page is first opened: a customer who pays in an instant,
   * for tests of what arrives after a payment is confirmed. Off by default.
   */
  payOnView: boolean;
}

export interface EmulatorOptions {
  /** Origin used in `payment_url`. Default `http://127.0.0.1:4010`. */
  publicUrl?: string;
  /** Merchant accounts. Default: Demo Shop and Prepaid Demo Shop (see config.ts). */
  merchants?: Merchant[];
  /** Default 60. */
  rateLimit?: number;
  /** Default 0. */
  latencyMs?: number;
  /** Delay of the `sandbox:slow` magic value. Default 15 000 ms. */
  slowMs?: number;
  /** Retry policy, timeout and memory of the `payment.success` webhook (the URL is per merchant). */
  webhooks?: WebhookOptions;
  /** Receives one line per request and per webhook attempt. Default: no logging. */
  log?: (line: string) => void;
  /** Real time source under the emulator clock. Default `Date.now`. */
  now?: () => number;
}

export interface EmulatorState {
  readonly publicUrl: string;
  readonly merchants: readonly Merchant[];
  readonly clock: Clock;
  readonly store: Store;
  readonly faults: FaultQueue;
  readonly limiter: RateLimiter;
  readonly signer: AccessTokenSigner;
  /** `payment.success` deliveries to the merchants' webhook URLs. */
  readonly webhooks: Webhooks;
  /** Current settings; `reset()` puts back the ones given at creation. */
  readonly settings: Settings;
  readonly slowMs: number;
  readonly log: ((line: string) => void) | undefined;
  /** Purges expired tokens, payments and rate-limit windows now. */
  purge(): PurgeResult;
  /** Purges at most once per emulator-clock second; called on every request. */
  maybePurge(): void;
  /** Moves the emulator clock forward and purges. */
  advanceClock(seconds: number): PurgeResult;
  /**
   * Clears payments, tokens, faults, webhook deliveries (cancelling their retries), rate-limit counters, the clock
   * offset and settings.
   */
  reset(): void;
}

export function createState(options: EmulatorOptions = {}): EmulatorState {
  const clock = createClock(options.now);
  const store = createStore();
  const limiter = createRateLimiter();
  const faults = createFaultQueue();
  const webhooks = createWebhooks({ clock, faults, log: options.log, options: options.webhooks });
  const defaults: Settings = {
    rateLimit: options.rateLimit ?? 60,
    latencyMs: options.latencyMs ?? 0,
    payOnView: false,
  };
  const settings: Settings = { ...defaults };
  let lastPurge = clock.now();

  const purge = () => {
    const now = clock.now();
    lastPurge = now;
    limiter.purge(now);
    return store.purge(now);
  };

  return {
    publicUrl: (options.publicUrl ?? "http://127.0.0.1:4010").replace(/\/+$/, ""),
    merchants: options.merchants ?? defaultMerchants(),
    clock,
    store,
    faults,
    limiter,
    signer: createAccessTokenSigner(clock),
    webhooks,
    settings,
    slowMs: options.slowMs ?? SLOW_MAGIC_DELAY_MS,
    log: options.log,
    purge,
    maybePurge() {
      if (clock.now() - lastPurge >= 1000) purge();
    },
    advanceClock(seconds) {
      clock.advance(seconds);
      return purge();
    },
    reset() {
      store.clear();
      faults.clear();
      webhooks.clear();
      limiter.clear();
      clock.reset();
      Object.assign(settings, defaults);
      lastPurge = clock.now();
    },
  };
}
