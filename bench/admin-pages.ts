// The back office at 100 000 orders: an admin signs in through /admin/sign-in like a browser without JavaScript
// (the form's hidden `$ACTION_…` inputs posted back), then the orders list is timed from the bench process over
// loopback — request sent to last byte read — unfiltered, filtered by status and by "flagged" (a flag not yet
// resolved), searched by e-mail and by order id, and 90 % of the way down through a `before=` cursor; and the merchant's
// home (the dashboard) for each of its periods.
import { findForm, getPage } from "../testing/no-js-shop";
import type { SeededOrders } from "./seed";
import { summary, type Summary } from "./stats";

/** Budget: every measured admin list and search page ≤ 200 ms p95 at 100 000 orders. */
export const ADMIN_P95_BUDGET_MS = 200;

export const BENCH_ADMIN = { email: "bench-admin@example.ly", password: "bench-only-admin-password" } as const;

/** The `admin_session=…` pair of a response's Set-Cookie. */
function adminCookie(response: Response): string | undefined {
  return response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0]!)
    .find((pair) => pair.startsWith("admin_session="));
}

/** Signs in with the sign-in page's form, as a browser without JavaScript; @returns the admin's cookie. */
export async function signInAdmin(
  shopUrl: string,
  { email, password }: { email: string; password: string } = BENCH_ADMIN,
): Promise<string> {
  const pageUrl = `${shopUrl}/admin/sign-in`;
  const form = findForm(await getPage(pageUrl), "password");
  if (!form) throw new Error(`${pageUrl} has no sign-in form (no field named password)`);
  const body = new FormData();
  for (const [name, value] of form.hidden) body.append(name, value);
  body.append("email", email);
  body.append("password", password);
  const response = await fetch(pageUrl, {
    method: "POST",
    body,
    headers: { Accept: "text/html", Origin: new URL(shopUrl).origin },
    redirect: "manual",
  });
  await response.arrayBuffer();
  const cookie = adminCookie(response);
  const location = response.headers.get("location") ?? "";
  // Signed in, the back office opens on its home; a refusal goes back to the sign-in page, also under /admin.
  if (response.status !== 303 || !cookie || new URL(location, shopUrl).pathname !== "/admin") {
    throw new Error(
      `sign-in answered ${response.status} ${location}${cookie ? "" : " without an admin_session cookie"}`,
    );
  }
  return cookie;
}

export interface AdminQuery {
  key: string;
  name: string;
  path: string;
  /** Rows the page must show (50 a page). */
  rows: number;
  /** Text the page must contain besides (the right page was served). */
  contains?: string;
}

/** The merchant's home (app/admin/page.tsx) for each of its periods: every figure at once. */
export function dashboardQueries(): AdminQuery[] {
  return (["today", "7d", "30d"] as const).map((period) => ({
    key: `dashboard-${period}`,
    name: `Dashboard, ${period}`,
    path: `/admin?period=${period}`,
    rows: 0,
    contains: 'data-testid="sales-chart"',
  }));
}

/** The pages measured, for the seeded orders. */
export function adminQueries(seeded: SeededOrders): AdminQuery[] {
  return [
    { key: "list", name: "List, unfiltered (page 1)", path: "/admin/orders", rows: 50 },
    { key: "status", name: "Filter: status paid (page 1)", path: "/admin/orders?status=paid", rows: 50 },
    {
      key: "flagged",
      name: `Filter: flagged, not resolved (${seeded.flagged} orders)`,
      path: "/admin/orders?status=flagged",
      rows: Math.min(50, seeded.flagged),
    },
    {
      key: "email",
      name: `Search: e-mail (${seeded.emailOrders} orders)`,
      path: `/admin/orders?q=${encodeURIComponent(seeded.email)}`,
      rows: seeded.emailOrders,
    },
    { key: "id", name: "Search: order id", path: `/admin/orders?q=${seeded.orderId}`, rows: 1 },
    {
      key: "deep",
      name: `Deep page (before the ${seeded.deepPosition.toLocaleString("en")}th order)`,
      path: `/admin/orders?before=${seeded.deepCursor}`,
      rows: 50,
    },
    ...dashboardQueries(),
  ];
}

export interface AdminTiming {
  key: string;
  name: string;
  path: string;
  summary: Summary;
}

const ROW = /data-testid="admin-order-row"/g;

async function timeOnce(url: string, cookie: string, expectedRows: number, contains?: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    headers: { Accept: "text/html", "Accept-Language": "en", Cookie: cookie },
    redirect: "manual",
  });
  const html = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  const rows = html.match(ROW)?.length ?? 0;
  if (rows !== expectedRows) throw new Error(`GET ${url} showed ${rows} orders, expected ${expectedRows}`);
  if (contains && !html.includes(contains)) throw new Error(`GET ${url} did not show ${contains}`);
  return elapsed;
}

/**
 * Times every query `n` times after `warmup` untimed rounds, the queries interleaved round by round.
 * @returns p50/p95 per query.
 */
export async function measureAdminPages(
  shopUrl: string,
  cookie: string,
  queries: AdminQuery[],
  { n, warmup }: { n: number; warmup: number },
): Promise<AdminTiming[]> {
  const samples = new Map(queries.map((query) => [query.key, [] as number[]]));
  for (let round = 0; round < n + warmup; round++) {
    for (const query of queries) {
      const elapsed = await timeOnce(`${shopUrl}${query.path}`, cookie, query.rows, query.contains);
      if (round >= warmup) samples.get(query.key)!.push(elapsed);
    }
  }
  return queries.map((query) => ({
    key: query.key,
    name: query.name,
    path: query.path,
    summary: summary(samples.get(query.key)!),
  }));
}
