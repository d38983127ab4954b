/** The primary call to action's look, shared by submit buttons and links styled as buttons. */
export const primaryAction = "rounded-lg bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-800";
