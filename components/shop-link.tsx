import Link from "next/link";

/**
 * A link between the shop's pages: next/link's navigation without the page loaded again, but without its
 * prefetching. Every shop page is rendered per request (its language, cart and nonce come from the request), so a
 * prefetch cannot fetch the page ahead: it only fetches the route and the page's title, in two requests per link in
 * view — 22 server renders for the home page's 11 links, and their answers handled on the phone's main thread while
 * it is still loading the page. A click fetches the page as fast without them.
 */
export function ShopLink(props: React.ComponentProps<typeof Link>) {
  return <Link {...props} prefetch={false} />;
}
