/**
 * The emulator's environment variables (all optional; README "Configuration"), read with one zod schema.
 * A malformed value stops the server with a message naming the variable.
 */
import { z } from "zod";
import { defaultMerchants } from "./config";
import type { EmulatorOptions } from "./state";
import { isHttpUrl } from "./validation";

export interface ServerConfig {
  host: string;
  port: number;
  quiet: boolean;
  options: EmulatorOptions & { publicUrl: string; rateLimit: number; latencyMs: number };
}

/** Thrown for malformed environment variables, one line each. */
class EnvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EnvError";
  }
}

const wholeNumber = (max: number) =>
  z
    .string()
    .refine((value) => /^\d+$/.test(value) && Number(value) <= max, {
      error: (issue) => `must be a whole number from 0 to ${max}, got "${String(issue.input)}".`,
    })
    .transform(Number);

const origin = z.string().regex(/^https?:\/\/[^/]+\/?$/, {
  error: (issue) => `must be an origin such as http://127.0.0.1:4010 (no path), got "${String(issue.input)}".`,
});

const httpUrl = z.string().refine(isHttpUrl, {
  error: (issue) =>
    `must be an absolute http(s) URL such as http://127.0.0.1:3000/api/payments/webhook, got "${String(issue.input)}".`,
});

const envSchema = z
  .object({
    EMULATOR_HOST: z.string().default("127.0.0.1"),
    EMULATOR_PORT: wholeNumber(65_535).default(4010),
    /** Defaults to `http://127.0.0.1:<port>`. */
    EMULATOR_PUBLIC_URL: origin.optional(),
    EMULATOR_RATE_LIMIT: wholeNumber(1_000_000).default(60),
    EMULATOR_LATENCY_MS: wholeNumber(60_000).default(0),
    EMULATOR_QUIET: z
      .string()
      .optional()
      .transform((value) => ["1", "true", "yes"].includes(value?.toLowerCase() ?? "")),
    EMULATOR_CLIENT_ID: z.string().optional(),
    EMULATOR_CLIENT_SECRET: z.string().optional(),
    EMULATOR_PREPAID_CLIENT_ID: z.string().optional(),
    EMULATOR_PREPAID_CLIENT_SECRET: z.string().optional(),
    EMULATOR_WEBHOOK_URL: httpUrl.optional(),
    EMULATOR_WEBHOOK_SECRET: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    // An unsigned webhook would teach the shop to accept anything.
    if (env.EMULATOR_WEBHOOK_URL !== undefined && env.EMULATOR_WEBHOOK_SECRET === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["EMULATOR_WEBHOOK_SECRET"],
        message: "must be set when EMULATOR_WEBHOOK_URL is: every webhook is signed with it.",
      });
    }
  });

type Env = Record<string, string | undefined>;

/** Trimmed values; a blank variable counts as unset. */
function presentValues(env: Env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).flatMap(([name, value]) => {
      const trimmed = value?.trim();
      return trimmed ? [[name, trimmed]] : [];
    }),
  );
}

/** Builds the server configuration from environment variables; throws {@link EnvError}. */
export function configFromEnv(env: Env): ServerConfig {
  const parsed = envSchema.safeParse(presentValues(env));
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((issue) => `${String(issue.path[0])} ${issue.message}`).join("\n"));
  }
  const vars = parsed.data;
  const webhook =
    vars.EMULATOR_WEBHOOK_URL !== undefined && vars.EMULATOR_WEBHOOK_SECRET !== undefined
      ? { url: vars.EMULATOR_WEBHOOK_URL, secret: vars.EMULATOR_WEBHOOK_SECRET }
      : undefined;

  return {
    host: vars.EMULATOR_HOST,
    port: vars.EMULATOR_PORT,
    quiet: vars.EMULATOR_QUIET,
    options: {
      publicUrl: vars.EMULATOR_PUBLIC_URL ?? `http://127.0.0.1:${vars.EMULATOR_PORT}`,
      rateLimit: vars.EMULATOR_RATE_LIMIT,
      latencyMs: vars.EMULATOR_LATENCY_MS,
      merchants: defaultMerchants({
        clientId: vars.EMULATOR_CLIENT_ID,
        clientSecret: vars.EMULATOR_CLIENT_SECRET,
        prepaidClientId: vars.EMULATOR_PREPAID_CLIENT_ID,
        prepaidClientSecret: vars.EMULATOR_PREPAID_CLIENT_SECRET,
        webhook,
      }),
    },
  };
}
