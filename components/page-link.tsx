import Link from "next/link";

/**
 * A link between the app's pages, the shop's and the back office's: next/link's navigation without the page loaded
 * again, but without its prefetching. Every page is rendered per request (its language, cart or admin session and
 * nonce come from the request), so a prefetch cannot fetch the page ahead: it only fetches the route and the page's
 * title, in two requests per link in view — 22 server renders for the shop's home page's 11 links, two for every order
 * of a back-office list, and their answers handled on the phone's main thread while it is still loading the page. A
 * click fetches the page as fast without them. ESLint (eslint.config.mjs) keeps next/link's own import here.
 */
export function PageLink(props: React.ComponentProps<typeof Link>) {
  return <Link {...props} prefetch={false} />;
}
