import { getTranslations } from "next-intl/server";
import type { Messages } from "next-intl";

/**
 * Something the customer must be told, as a key of the `problems` message catalogue (lib/i18n/messages/*.json)
 * plus its values. The domain (lib/) names problems; actions translate them into the shopper's language.
 */
export type ProblemKey = keyof Messages["problems"];
export interface Problem {
  key: ProblemKey;
  values?: Record<string, string | number>;
}

/** Shorthand for a {@link Problem}. */
export const problem = (key: ProblemKey, values?: Problem["values"]): Problem => (values ? { key, values } : { key });

/** A {@link Problem} in the current request's language (server actions and Server Components). */
export async function translateProblem({ key, values }: Problem): Promise<string> {
  return (await getTranslations("problems"))(key, values);
}
