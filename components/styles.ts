/** The primary call to action's look, shared by submit buttons and links styled as buttons. */
export const primaryAction = "rounded-lg bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800";

/** A secondary action beside the primary one: the same shape, outlined. */
export const secondaryAction =
  "rounded-lg border border-brand-700 bg-white px-5 py-2.5 font-medium text-brand-800 hover:bg-sand-100";
