import { z } from "zod";

/**
 * What the settings forms of delivery and cash on delivery share (app/admin/delivery, app/admin/cash): the state a
 * refused form comes back with, what was typed, and each field's first problem.
 */

/**
 * What a settings form shows after a refused submission: the message of each text field, what was typed, and its
 * checkboxes (`Flag`, `enabled` unless told) as they were ticked.
 */
export interface SettingsFormState<Field extends string, Flag extends string = "enabled"> {
  message?: string;
  fieldErrors?: Partial<Record<Exclude<Field, Flag>, string>>;
  values: Partial<Record<Exclude<Field, Flag>, string>> & Partial<Record<Flag, boolean>>;
}

/** The form's text fields as typed (cut at a length no field allows), and its checkboxes (ticked: `on`). */
export function formValues<Field extends string, Flag extends string>(
  form: FormData,
  fields: readonly Field[],
  flags: readonly Flag[],
) {
  const values: Partial<Record<Field, string>> & Partial<Record<Flag, boolean>> = {};
  for (const field of fields) {
    const value = form.get(field);
    if (typeof value === "string") (values as Record<string, string>)[field] = value.slice(0, 1_000);
  }
  for (const flag of flags) (values as Record<string, boolean>)[flag] = form.get(flag) === "on";
  return values;
}

/** Each field's first problem, translated by `t` (the page's problems' namespace). */
export function fieldErrorsOf<Field extends string>(
  error: z.ZodError,
  fields: readonly Field[],
  t: (problem: string) => string,
) {
  const issues = z.flattenError(error).fieldErrors as Record<string, string[] | undefined>;
  const fieldErrors: Partial<Record<Field, string>> = {};
  for (const field of fields) {
    const problem = issues[field]?.[0];
    if (problem) fieldErrors[field] = t(problem);
  }
  return fieldErrors;
}
