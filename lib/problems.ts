import type en from "./i18n/messages/en.json";

/**
 * Something the customer must be told, as a key of the `problems` message catalogue (lib/i18n/messages/*.json)
 * plus its values. The domain (lib/) names problems; pages and actions translate them into the shopper's language.
 */
export type ProblemKey = keyof (typeof en)["problems"];
export interface Problem {
  key: ProblemKey;
  values?: Record<string, string | number>;
}

/** Shorthand for a {@link Problem}. */
export const problem = (key: ProblemKey, values?: Problem["values"]): Problem => (values ? { key, values } : { key });
