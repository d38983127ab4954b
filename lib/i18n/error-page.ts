/**
 * Texts of the last-resort error page. It is a client component (an error boundary), and the whole i18n runtime is
 * not worth shipping to every page for three sentences, so they live here, in both languages, and the page picks
 * by the document's `lang`. Every other client component gets its texts as props from the server.
 */
export const ERROR_PAGE_TEXT = {
  en: {
    title: "Something went wrong",
    text: "Sorry, this page could not be shown. Your cart is saved.",
    retry: "Try again",
  },
  ar: {
    title: "حدث خطأ ما",
    text: "عذرًا، تعذّر عرض هذه الصفحة. سلتك محفوظة.",
    retry: "حاول مرة أخرى",
  },
} as const;
