import { parse } from "csv-parse/sync";
import { BRAND } from "../lib/brand";
import type { Element } from "domhandler";
import {
  adminCookie,
  adminForm,
  adminSignIn,
  browse,
  formAsShown,
  getPage,
  hrefOf,
  nodeText,
  parseHtml,
  placePaidOrder,
  postForm,
  select,
  textOf,
  textsOf,
} from "../testing/no-js-shop";
import {
  addToCart,
  createAdmin,
  database,
  emulator,
  expect,
  mailbox,
  shop,
  signInAsAdmin,
  stack,
  test,
} from "./support";
import { OWNER } from "./stacks";

/** The back office: who may get in, what the merchant sees, and fulfilling an order paid in the shop. */

// The shop's owner, made by the admin command in every stack's database (e2e/stacks.ts): these tests sign in with it.
const ADMIN = OWNER;
test.beforeEach(async ({ request }) => {
  await emulator.reset(request);
});

/**
 * Buys two saffron as a browser without JavaScript does (testing/no-js-shop.ts) and pays on the payment page.
 * @returns the order id, once the service's webhook has confirmed it.
 */
async function buyAndPay(): Promise<string> {
  const details = { full_name: "Aisha Ben Ali", email: "aisha@example.ly", payment_gateway: "sadad" };
  const { orderPath } = await placePaidOrder(stack().shopUrl, stack().emulatorUrl, {
    slug: "saffron",
    quantity: 2,
    details,
  });
  const orderId = orderPath.split("?")[0]!.split("/").pop()!;
  await expect
    .poll(() => database(async (pool) => (await pool.query("select status from orders where id = $1", [orderId])).rows))
    .toEqual([{ status: "paid" }]);
  return orderId;
}

/**
 * Signs in on /admin/sign-in as a browser without JavaScript does, from the address `forwardedFor` (the shop trusts
 * one proxy here, e2e/stacks.ts). @returns the message the sign-in page then shows, or `null` when it shows none.
 */
async function signInByForm(email: string, password: string, forwardedFor: string): Promise<string | null> {
  const base = stack().shopUrl;
  const answer = await adminSignIn(base, email, password, forwardedFor);
  expect(answer.status).toBe(303);
  return textOf(await getPage(new URL(answer.headers.get("location")!, base).href), '[data-testid="sign-in-error"]');
}

test("signed out, every admin page, the export and an admin action are refused", async ({ request }) => {
  const orderId = await buyAndPay();
  for (const path of [
    "/admin",
    "/admin/orders",
    `/admin/orders/${orderId}`,
    "/admin/orders?status=paid",
    "/admin/orders/export",
    "/admin/reconcile",
    "/admin/reconcile/lst_0123456789abcdef",
    "/admin/products",
    "/admin/products/new",
    "/admin/products/1",
    "/admin/products/import",
    "/admin/products/import/imp_0123456789abcdef",
    "/admin/products/export",
    "/admin/delivery",
    "/admin/delivery/zones/new",
    "/admin/delivery/zones/1",
    "/admin/promo-codes",
    "/admin/promo-codes/new",
    "/admin/promo-codes/1",
  ]) {
    expect((await browse(new URL(path, stack().shopUrl).href)).url, path).toMatch(/\/admin\/sign-in$/);
  }

  // The first fulfilment step (the order is a delivery), posted straight to the server without an admin session: refused, nothing changes.
  const admin = await adminCookie(stack().shopUrl, ADMIN.email, ADMIN.password);
  const orderPage = await getPage(`${stack().shopUrl}/admin/orders/${orderId}`, admin);
  const multipart = Object.fromEntries(adminForm(orderPage, "step", "packed"));
  const forged = await request.post(`${stack().shopUrl}/admin/orders/${orderId}`, {
    multipart,
    headers: { Origin: stack().shopUrl },
    maxRedirects: 0,
  });
  expect([303, 307, 401, 403]).toContain(forged.status());
  if (forged.status() === 303 || forged.status() === 307)
    expect(forged.headers()["location"] ?? forged.headers()["x-action-redirect"]).toMatch(/\/admin\/sign-in/);
  // The same post from another site (a forged form): refused with a page that says so, not Next.js's bare 500.
  const crossSite = await request.post(`${stack().shopUrl}/admin/orders/${orderId}`, {
    multipart,
    headers: { Origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(crossSite.status()).toBe(403);
  expect(await crossSite.text()).toContain(shop("formFromElsewhere.title", "en"));
  const [row] = await database(
    async (pool) => (await pool.query("select fulfilment, fulfilled_at from orders where id = $1", [orderId])).rows,
  );
  expect(row).toEqual({ fulfilment: null, fulfilled_at: null });
});

test("six wrong passwords lock the account with a message that says when to try again", async () => {
  await createAdmin("locked@medina.example", "the-right-password-1");
  // Its own address, so the lock does not reach the other tests' sign-ins. Posted as a browser without JavaScript
  // posts the form: the messages are the server's.
  for (let attempt = 1; attempt <= 6; attempt++) {
    const message = await signInByForm("locked@medina.example", `wrong-password-${attempt}`, "203.0.113.9");
    if (attempt <= 5) expect(message).toBe("That e-mail and password do not match an account.");
    else expect(message).toMatch(/Too many failed attempts\. Try again in 15 minutes\./);
  }
  // Even the right password waits now.
  expect(await signInByForm("locked@medina.example", "the-right-password-1", "203.0.113.9")).toContain(
    "Too many failed attempts",
  );
});

test(
  "locked out everywhere, the admin signs in once with the link e-mailed to them; the same link in a second browser is refused",
  { tag: "@pooler" },
  async ({ browser, request }) => {
    const email = `link-${Date.now().toString(36)}@medina.example`;
    await createAdmin(email, "the-link-password-1");
    // Locked the way a guesser without a trusted proxy locks it (lib/admin/sign-in-owner.test.ts does it attempt by
    // attempt): five failures claiming this browser's address, twenty from others.
    const address = "203.0.113.77";
    await database((pool) =>
      pool.query(
        `insert into sign_in_attempts (email, ip, succeeded)
       select $1, case when i <= 5 then $2 else '192.0.2.' || i end, false from generate_series(1, 25) as i`,
        [email, address],
      ),
    );
    const context = await browser.newContext({ locale: "ar-LY", extraHTTPHeaders: { "X-Forwarded-For": address } });
    const page = await context.newPage();
    await page.goto("/admin/sign-in");
    await page.getByLabel(shop("admin.signIn.email", "ar")).fill(email);
    await page.getByLabel(shop("admin.signIn.password", "ar")).fill("the-link-password-1");
    await page.getByRole("button", { name: shop("admin.signIn.submit", "ar") }).click();
    await expect(page.getByTestId("sign-in-error")).toContainText("محاولات فاشلة كثيرة");

    await page.getByRole("link", { name: shop("admin.signIn.linkAction", "ar") }).click();
    await expect(page.getByRole("heading", { name: shop("admin.signInLink.title", "ar") })).toBeVisible();
    await page.getByLabel(shop("admin.signInLink.email", "ar")).fill(email);
    await page.getByRole("button", { name: shop("admin.signInLink.submit", "ar") }).click();
    await expect(page.getByTestId("sign-in-link-sent")).toBeVisible();

    const mail = await mailbox.latestTo(request, email);
    expect(mail.subject).toBe(shop("email.signInLink.subject", "ar").replace("{shop}", BRAND.name.ar));
    const link = /https?:\/\/[^\s\]]+\/admin\/sign-in\/link\?token=[\w-]{43}/.exec(mail.text)![0];
    expect(link.startsWith(`${stack().shopUrl}/`)).toBe(true);

    // Opened in two browsers before either presses the button (a mail app's preview, then the admin's browser).
    const elsewhere = await browser.newContext({ locale: "ar-LY" });
    const other = await elsewhere.newPage();
    await Promise.all([page.goto(link), other.goto(link)]);
    const confirm = shop("admin.signInLink.confirm", "ar").replace("{email}", email);
    await expect(page.getByText(confirm)).toBeVisible();
    await expect(other.getByText(confirm)).toBeVisible();
    await page.getByRole("button", { name: shop("admin.signInLink.confirmSubmit", "ar") }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await other.getByRole("button", { name: shop("admin.signInLink.confirmSubmit", "ar") }).click();
    await expect(other).toHaveURL(/\/admin\/sign-in\/link\?error=usedOrExpired$/);
    await expect(other.getByTestId("sign-in-link-error")).toHaveText(shop("admin.signInLink.usedOrExpired", "ar"));
    await other.goto("/admin/orders");
    await expect(other).toHaveURL(/\/admin\/sign-in$/);
    await Promise.all([context.close(), elsewhere.close()]);
  },
);

test(
  "sign-ins beyond what the server checks at once are told to try again in a moment",
  { tag: "@pooler" },
  async () => {
    // Ten people submit at once, each from an address of their own: one password is checked at a time and two wait
    // their turn; the others are told so at once, and their attempt costs the shop nothing. Posted as a browser
    // without JavaScript posts the form, so that the ten really arrive together.
    const messages = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        signInByForm(`nobody-${i}@medina.example`, "not-the-password", `203.0.113.${100 + i}`),
      ),
    );
    expect(messages).toContain("Many sign-ins are being checked right now. Try again in a moment.");
    expect(messages).toContain("That e-mail and password do not match an account.");
  },
);

test("signing out ends the session on the server: a copy of its cookie opens neither the orders nor the export", async () => {
  await createAdmin("sign-out@medina.example", "the-sign-out-password");
  const base = stack().shopUrl;
  const cookie = await adminCookie(base, "sign-out@medina.example", "the-sign-out-password");
  // Someone copies the cookie (a shared computer, a proxy's log, malware) into a browser of their own.
  const copy = cookie;
  expect((await browse(`${base}/admin/orders`, copy)).url).toBe(`${base}/admin/orders`);

  const orders = await getPage(`${base}/admin/orders`, cookie);
  const signOut = await postForm(`${base}/admin/orders`, formAsShown(orders, { button: "Sign out" }), cookie);
  expect(signOut.location).toMatch(/\/admin\/sign-in\?signed-out=everywhere$/);
  const signedOut = await getPage(new URL(signOut.location!, base).href);
  expect(textOf(signedOut, '[data-testid="signed-out"]')).toBe(shop("admin.signIn.signedOut", "en"));

  expect((await browse(`${base}/admin/orders`, copy)).url).toMatch(/\/admin\/sign-in$/);
  const exported = await fetch(`${base}/admin/orders/export`, { headers: { Cookie: copy }, redirect: "manual" });
  await exported.arrayBuffer();
  expect(exported.status).toBe(303);
  expect(exported.headers.get("location")).toBe("/admin/sign-in");
});

test("the order just paid is in the list with its history; pack it; the CSV has it", async () => {
  const orderId = await buyAndPay();
  const base = stack().shopUrl;
  const admin = await adminCookie(base, ADMIN.email, ADMIN.password);
  const open = (path: string) => getPage(new URL(path, base).href, admin);

  const response = await fetch(`${base}/admin/orders`, { headers: { Cookie: admin } });
  expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow");
  expect(response.headers.get("cache-control")).toContain("no-store");
  const row = textsOf(await response.text(), '[data-testid="admin-order-row"]').find((text) => text.includes(orderId));
  expect(row).toContain("Paid");
  expect(row).toContain("Aisha Ben Ali");

  // The list's search, a GET form.
  const found = await open(
    `/admin/orders?${new URLSearchParams(formAsShown(await open("/admin/orders"), "q", { q: orderId }))}`,
  );
  expect(textsOf(found, '[data-testid="admin-order-row"]')).toHaveLength(1);
  const orderPath = hrefOf(found, orderId);
  let order = await open(orderPath);

  const timeline = () => textOf(order, '[data-testid="order-timeline"]');
  for (const event of [
    "Order stored",
    "Payment created",
    "Webhook received",
    "signature verified",
    "Customer came back: reported paying",
  ])
    expect(timeline()).toContain(event);

  // A delivery's first step (the walk to delivered, with its e-mails, is e2e/fulfilment.spec.ts).
  const packed = await postForm(new URL(orderPath, base).href, formAsShown(order, { button: "Mark as packed" }), admin);
  expect(packed.status).toBe(303);
  order = await open(packed.location!);
  expect(textOf(order, "[role=status]")).toBe("Marked as packed. The customer's e-mail about it is on its way.");
  expect(timeline()).toContain(`Packed (by ${ADMIN.email})`);

  // The CSV, downloaded from the list's link.
  const csvLink = hrefOf(await open(`/admin/orders?q=${orderId}`), "Download as CSV");
  const download = await fetch(new URL(csvLink, base), { headers: { Cookie: admin } });
  expect(download.headers.get("content-disposition")).toMatch(/^attachment/);
  const csv = parse(await download.text(), { bom: true }) as string[][];
  expect(csv[1]).toEqual(
    expect.arrayContaining([
      orderId,
      "paid",
      "47.50",
      "LYD",
      "Aisha Ben Ali",
      "aisha@example.ly",
      "2 × Saffron threads, 2 g",
    ]),
  );
});

test("the home: a sale just paid is in today's figures, the chart and its table agree, each number opens its list", async () => {
  const orderId = await buyAndPay();
  const base = stack().shopUrl;
  const admin = await adminCookie(base, ADMIN.email, ADMIN.password);
  const open = (path: string, cookie = admin) => getPage(new URL(path, base).href, cookie);

  // A period the page does not know: said, and the default (7 days) shown.
  let home = await open("/admin?period=week");
  expect(textOf(home, "[role=status]")).toContain("“week”");
  const sevenDays = select("a[href]", parseHtml(home)).find(
    (link) => nodeText(link).trim() === shop("admin.dashboard.periods.7d", "en"),
  );
  expect(sevenDays?.attribs["aria-current"]).toBe("page");
  // One bar per day, named as an image, with the same numbers as the table under it.
  const charts = select('[role="img"][aria-label]', parseHtml(home)).filter((chart) =>
    /Bar chart of paid sales per day/.test(chart.attribs["aria-label"]!),
  );
  expect(charts).toHaveLength(1);
  expect(select("rect[data-day]", charts[0]!)).toHaveLength(7);
  expect(select('[data-testid="sales-table"] tbody tr', parseHtml(home))).toHaveLength(7);
  /** [day, sales] of each element matching `selector`, the day from it or the nearest element above it that has one. */
  const figures = (selector: string) =>
    select(selector, parseHtml(home)).map((node) => {
      let day: Element | null = node;
      while (day && day.attribs["data-day"] === undefined)
        day = day.parent?.type === "tag" ? (day.parent as Element) : null;
      return [day?.attribs["data-day"], node.attribs["data-sales-minor"]];
    });
  const fromChart = figures('[data-testid="sales-chart"] rect[data-day]');
  const fromTable = figures('[data-testid="sales-table"] td[data-sales-minor]');
  expect(fromChart).toEqual(fromTable);
  expect(Number(fromChart.at(-1)![1])).toBeGreaterThan(0);

  // Today's paid sales open the list of the orders paid today, whose total is the figure.
  const today = hrefOf(home, shop("admin.dashboard.periods.today", "en"));
  expect(today).toMatch(/\/admin\?period=today$/);
  home = await open(today);
  const sales = textOf(home, '[data-testid="figure-sales"]')!;
  const paidToday = select('[data-testid="figure-sales"]', parseHtml(home))[0]!.attribs.href!;
  expect(paidToday).toMatch(/\/admin\/orders\?paid=\d{4}-\d{2}-\d{2}$/);
  const list = await open(paidToday);
  expect(textOf(list, '[data-testid="orders-summary"]')).toContain(sales);
  expect(textOf(list, '[data-testid="orders-narrowed"]')).not.toBeNull();
  expect(hrefOf(list, orderId)).toContain(orderId);
  // "To fulfil" opens the list filtered that way, with the order in it.
  const toFulfil = select('[data-testid="to-fulfil-count"]', parseHtml(await open("/admin")))[0]!.attribs.href!;
  expect(toFulfil).toMatch(/\/admin\/orders\?status=to_fulfil$/);
  expect(hrefOf(await open(toFulfil), orderId)).toContain(orderId);

  // In Arabic, time runs right to left: the newest day's bar is the leftmost.
  home = await open("/admin?period=7d", `NEXT_LOCALE=ar; ${admin}`);
  const xs = select('[data-testid="sales-chart"] rect[data-day]', parseHtml(home)).map((bar) => Number(bar.attribs.x));
  expect(xs).toHaveLength(7);
  expect(xs).toEqual([...xs].sort((a, b) => b - a));
});

test("the shop's session gives no admin access, and the admin cookie stays on this site", async ({
  page,
  browser,
  context,
}) => {
  await addToCart(page, "saffron", 1, "en");
  expect((await context.cookies()).some((c) => c.name === "shop_session")).toBe(true);
  await page.goto("/admin/orders");
  await expect(page).toHaveURL(/\/admin\/sign-in$/);

  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signInAsAdmin(adminPage, ADMIN.email, ADMIN.password, "en");
  const cookie = (await admin.cookies()).find((c) => c.name === "admin_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/admin" });
  expect(cookie!.expires - Date.now() / 1000).toBeLessThanOrEqual(8 * 3600 + 60);

  // A link followed from another site (the payment service's origin) arrives without the admin cookie.
  await adminPage.goto(`${stack().emulatorUrl}/`);
  await adminPage.evaluate((url) => (window.location.href = url), `${stack().shopUrl}/admin/orders`);
  await expect(adminPage).toHaveURL(/\/admin\/sign-in$/);
  // From the back office itself it is still signed in.
  await adminPage.goto("/admin/orders");
  await expect(adminPage).toHaveURL(/\/admin\/orders$/);

  // Signing out ends it.
  await adminPage.getByRole("button", { name: "Sign out" }).click();
  await expect(adminPage).toHaveURL(/\/admin\/sign-in\?signed-out=everywhere$/);
  await adminPage.goto("/admin/orders");
  await expect(adminPage).toHaveURL(/\/admin\/sign-in$/);
  await admin.close();
});
