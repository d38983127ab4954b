/** The primary call to action's look, shared by submit buttons and links styled as buttons. */
export const primaryAction = "rounded-lg bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800";

/** A secondary action beside the primary one: the same shape, outlined. */
export const secondaryAction =
  "rounded-lg border border-brand-700 bg-white px-5 py-2.5 font-medium text-brand-800 hover:bg-sand-100";

/** The back office's card: a white box with a light border around a section, a form, a table or a message. */
export const card = "rounded-xl border border-stone-200 bg-white";

/** A file input with a button-like picker, in the back office's uploads. */
export const fileInput =
  "text-sm file:me-3 file:rounded-lg file:border file:border-stone-300 file:bg-white file:px-3 file:py-1.5 file:font-medium hover:file:bg-stone-50";

/** Class names joined, skipping the empty ones (`false`, `undefined`, `""`). */
export function classes(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}
