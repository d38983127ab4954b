import "server-only";
import { getTranslations } from "next-intl/server";
import type { Problem } from "../problems";

/** Translates a {@link Problem} into the current request's language (server actions and Server Components). */
export async function translateProblem(problem: Problem): Promise<string> {
  const t = await getTranslations("problems");
  return t(problem.key, problem.values);
}
