import { getRequestConfig } from "next-intl/server";
import { cookies, headers } from "next/headers";
import { TIME_ZONE } from "../time";
import { LOCALE_COOKIE, resolveLocale } from "./config";

/** next-intl's per-request configuration (wired in next.config.mjs): the language and its messages. */
export default getRequestConfig(async () => {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  const locale = resolveLocale(cookieStore.get(LOCALE_COOKIE)?.value, headerList.get("accept-language"));
  return {
    locale,
    messages: (await import(`./messages/${locale}.json`)).default,
    timeZone: TIME_ZONE,
  };
});
