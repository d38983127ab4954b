"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Re-renders the page from the server every `seconds` until `until` (ms since epoch), so a status that is about to
 * change shows up without a click. With JavaScript the page is refreshed in place (live regions announce what
 * changed); without it, a `<meta http-equiv="refresh">` in `<noscript>` reloads the page. The server stops
 * rendering this component once there is nothing left to wait for.
 */
export function AutoRefresh({ seconds, until }: { seconds: number; until: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => (Date.now() < until ? router.refresh() : clearInterval(timer)), seconds * 1000);
    return () => clearInterval(timer);
  }, [router, seconds, until]);
  // A string, so that React renders it inside <noscript> as it is instead of hoisting the <meta> into <head>.
  return (
    <noscript dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="${Math.round(seconds)}">` }} />
  );
}
