import { readFileSync, statSync } from "node:fs";
import type { Page } from "@playwright/test";
import { Pool, type PoolClient, type QueryConfig } from "pg";
import { ERROR_PAGE_TEXT } from "../lib/i18n/error-page";
import {
  adminCookie,
  adminSignIn,
  browse,
  getPage,
  hrefOf,
  parseHtml,
  payAtEmulator,
  returnToShop,
  select,
  startPayment,
  textOf,
  textsOf,
} from "../testing/no-js-shop";
import { createAdmin, database, emulator, expect, mailbox, shop, signInAsAdmin, stack, test } from "./support";

/**
 * The shop's database goes away while a customer is on the payment page. Without JavaScript (where the error page
 * shows nothing), the customer still reads that the return was not recorded and that the payment is safe.
 */

/** Runs statements from the same server's `template1`, so that the shop's own database can be closed meanwhile. */
async function onServer(...statements: string[]): Promise<void> {
  const url = new URL(stack().directDatabaseUrl);
  url.pathname = "/template1";
  const pool = new Pool({ connectionString: url.href, max: 1 });
  try {
    for (const statement of statements) await pool.query(statement);
  } finally {
    await pool.end();
  }
}

/**
 * The outage: the shop's database (the worker's own; e2e/stacks.ts names are plain identifiers) refuses new
 * connections, and the shop's open ones are closed.
 */
const closeDatabase = () =>
  onServer(
    `alter database ${stack().database} allow_connections false`,
    `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${stack().database}' and pid <> pg_backend_pid()`,
  );
const reopenDatabase = () => onServer(`alter database ${stack().database} allow_connections true`);

test.describe("without JavaScript", () => {
  test.afterEach(async () => {
    await reopenDatabase();
  });

  test('a database outage: the return from the payment page shows "your payment is safe", not an error', async ({
    request,
  }) => {
    await emulator.reset(request);
    const t = (key: string) => shop(key, "en");
    // The customer, as a browser without JavaScript (testing/no-js-shop.ts), on the gateway's page when it goes.
    const started = await startPayment(stack().shopUrl, stack().emulatorUrl, {
      slug: "saffron",
      details: { payment_gateway: "sadad" },
    });
    await closeDatabase();
    const { orderPath, cookie } = await returnToShop(await payAtEmulator(started.paymentUrl, "sadad"), started.cookie);
    expect(orderPath).toMatch(/^\/orders\/ord_[0-9a-z]+\?outcome=not_recorded$/);
    const orderPage = new URL(orderPath, stack().shopUrl).href;
    const down = await browse(orderPage, cookie);
    expect(down.status).toBe(200);
    expect(textOf(down.html, "main")).toContain(t("order.notices.not_recorded"));
    expect(textsOf(down.html, "h1")).toContain(t("order.unavailable.title"));
    expect(textOf(down.html, "main")).toContain(t("order.unavailable.text"));
    // "Your orders" and the checkout (this session holds an order) say the same, not a blank error page.
    for (const path of ["/orders", "/checkout"]) {
      const page = await browse(new URL(path, stack().shopUrl).href, cookie);
      expect(page.status).toBe(200);
      expect(textsOf(page.html, "h1")).toContain(t("order.unavailable.title"));
    }

    // The database is back: the page's link loads the same page, which shows the order (the service's webhook retries
    // until it is recorded).
    await reopenDatabase();
    const again = await browse(new URL(hrefOf(down.html, t("order.unavailable.reload")), orderPage).href, cookie);
    expect(again.url).toBe(orderPage);
    expect(select('[data-testid="order-status"]', parseHtml(again.html))).toHaveLength(1);
    expect(textOf(again.html, "main")).toContain(t("order.notices.not_recorded"));
  });
});

/**
 * The review's lost order: paid while the database was down, every webhook delivery failed, the customer never came
 * back. The service's retries running out is played by resetting the emulator after its first failed delivery (its
 * pending retries are cancelled), and the payment page's death by moving its end into the past: no waiting.
 */
test.describe("a payment the shop could not hear of", () => {
  test.afterEach(async () => {
    await reopenDatabase();
  });

  test("its order is not expired unseen: the job flags it 'check the payment list' and the merchant's e-mail names it", async ({
    request,
  }) => {
    await emulator.reset(request);
    // The customer, as a browser without JavaScript (testing/no-js-shop.ts): this test is about what happens after.
    const started = await startPayment(stack().shopUrl, stack().emulatorUrl, {
      slug: "saffron",
      details: { payment_gateway: "sadad" },
    });

    await closeDatabase();
    const returnUrl = await payAtEmulator(started.paymentUrl, "sadad");
    const { orderPath } = await returnToShop(returnUrl, started.cookie);
    expect(orderPath).toMatch(/^\/orders\/ord_[0-9a-z]+\?outcome=not_recorded$/);
    const orderId = new URL(orderPath, stack().shopUrl).pathname.split("/").pop()!;
    const payment = (await emulator.payments(request)).find((listed) => listed.custom === orderId);
    expect(payment?.status).toBe("paid");
    // The service's delivery is refused (503); then it gives up.
    await expect
      .poll(async () => (await emulator.webhooks(request, payment!.token))[0]?.attempts.map((a) => a.status) ?? [])
      .toContain(503);
    await emulator.reset(request);
    await reopenDatabase();

    // The customer never comes back, and the payment page dies.
    await database((pool) =>
      pool.query("update orders set payment_expires_at = now() - interval '1 second' where id = $1", [orderId]),
    );
    const job = await request.get(`${stack().env.SITE_URL}/api/cron/expire-orders`, {
      headers: { Authorization: `Bearer ${stack().env.CRON_SECRET}` },
    });
    expect(job.status()).toBe(200);
    const order = await database(
      async (pool) =>
        (
          await pool.query<{ status: string; flags: string[] }>("select status, flags from orders where id = $1", [
            orderId,
          ])
        ).rows[0],
    );
    expect(order).toEqual({ status: "expired", flags: ["check_payment_list"] });
    const [notice] = await mailbox.waitFor(request, orderId, 1);
    expect(notice!.to.map((to) => to.address)).toEqual([stack().env.MERCHANT_EMAIL]);
    expect(notice!.subject).toContain(orderId);
    expect(notice!.text).toContain(shop("email.flags.check_payment_list", "en"));
  });
});

/**
 * The back office meeting a database that is down or failing, as the merchant's log records it. An error nobody
 * catches is printed by Next.js itself, whole; Drizzle's error quoted the failed query's parameters (the e-mail
 * typed at sign-in, the search term), and they ended up in the log. Now the error carries its code and operation.
 * The merchant's pages are read as a browser without JavaScript reads them (testing/no-js-shop.ts), but for the
 * failed search's: the last-resort error page shows only with JavaScript.
 */
test.describe("the back office with the database down or failing", () => {
  const run = Date.now().toString(36);
  const admin = { email: `outage-admin-${run}@medina.example`, password: "an-outage-e2e-password" };
  test.beforeAll(() => createAdmin(admin.email, admin.password));
  test.afterEach(async () => {
    await reopenDatabase();
  });

  test("a sign-in whose statement the database cancels: the log names the failure, not the e-mail", async () => {
    const email = `typed-at-sign-in-${run}@medina.example`;
    const log = shopLogFrom();
    // The sign-in waits for its e-mail's lock (lib/admin/auth.ts), and there the database cancels it.
    const database = await holdForTheShop({
      text: "select pg_advisory_xact_lock(hashtext($1))",
      values: [`sign-in:email:${email}`],
    });
    const [answer] = await Promise.all([
      adminSignIn(stack().shopUrl, email, "whatever-was-typed"),
      database.cancel(/pg_advisory_xact_lock/),
    ]);
    // The database answers again by the time the page loads: it says the sign-in was not saved.
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toMatch(/\/admin\/unavailable$/);
    const page = await getPage(new URL(answer.headers.get("location")!, stack().shopUrl).href);
    expect(textsOf(page, "h1")).toContain(shop("admin.notSaved.title", "en"));
    await expect.poll(log, { message: "the failure is in the log" }).toContain("57014");
    expect(log()).not.toContain(email);
  });

  test("a search whose statement the database cancels: the log names the failure, not the search term", async ({
    page,
  }) => {
    const term = `searched-customer-${run}@example.ly`;
    await signInAsAdmin(page, admin.email, admin.password, "en");
    const log = shopLogFrom();
    // The list's statements wait for a lock on the orders table; the search's own is cancelled.
    const database = await holdForTheShop("lock table orders in access exclusive mode");
    const [response] = await Promise.all([
      page.goto(`/admin/orders?q=${encodeURIComponent(term)}`),
      database.cancel(/lower\("orders"\."email"\)/),
    ]);
    expect(response?.status()).toBe(500);
    await expectErrorPage(page);
    await expect.poll(log, { message: "the failure is in the log" }).toContain("57014");
    expect(log()).not.toContain(term);
  });

  test("signing in and searching with the database stopped: the page says so; neither the e-mail nor the search term is logged", async () => {
    const base = stack().shopUrl;
    const signedIn = await adminCookie(base, admin.email, admin.password);
    const email = `typed-while-down-${run}@medina.example`;
    const term = `searched-while-down-${run}@example.ly`;
    const log = shopLogFrom();
    await closeDatabase();

    // What the shop's pages say in an outage, in the back office's words, with no bare 500: after a post, and on a
    // page — one whose title is read from the database too (a product's name).
    const answer = await adminSignIn(base, email, "whatever-was-typed");
    expect(answer.status).toBe(303);
    expectAdminUnavailable(await getPage(new URL(answer.headers.get("location")!, base).href));
    expectAdminUnavailable(await getPage(`${base}/admin/orders?q=${encodeURIComponent(term)}`, signedIn));
    expectAdminUnavailable(await getPage(`${base}/admin/products/1`, signedIn));

    await expect.poll(() => log().match(/55000|57P01|ECONNREFUSED/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(log()).not.toContain(email);
    expect(log()).not.toContain(term);
  });
});

/** What the shop has logged since this call: a function that reads it anew. */
function shopLogFrom(): () => string {
  const start = statSync(stack().shopLog).size;
  return () => readFileSync(stack().shopLog).subarray(start).toString("utf8");
}

/** The last-resort error page (app/error.tsx), in English. */
async function expectErrorPage(page: Page): Promise<void> {
  await expect(page.getByRole("heading", { name: ERROR_PAGE_TEXT.en.title })).toBeVisible();
}

/** What every page of the back office shows while the database cannot be reached (app/admin/layout.tsx). */
function expectAdminUnavailable(html: string): void {
  expect(textsOf(html, "h1")).toContain(shop("admin.unavailable.title", "en"));
  expect(textOf(html, "main")).toContain(shop("admin.unavailable.text", "en"));
}

/**
 * A failing database rather than a stopped one: PostgreSQL cancels one statement of the shop (SQLSTATE 57014, as a
 * statement timeout does) while everything else keeps working. To catch that statement the test takes `lock` in a
 * transaction of its own before the shop is asked anything, so the shop's statements that need it wait; `cancel`
 * lets the waiting statements that do not match `target` through and cancels the first that does. A page may run
 * statements side by side, so before each hand-over the next holder queues first: every statement that waits ahead
 * of it is looked at, and a later one waits behind it for the next round.
 */
async function holdForTheShop(lock: string | QueryConfig): Promise<{ cancel(target: RegExp): Promise<void> }> {
  const pool = new Pool({ connectionString: stack().directDatabaseUrl, max: 3 });
  const hold = async () => {
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
    await client.query("begin");
    return { client, pid: rows[0]!.pid, locked: client.query(lock) };
  };
  const release = async ({ client }: { client: PoolClient }) => {
    await client.query("commit");
    client.release();
  };
  type Waiting = { pid: number; query: string; started: string };
  const waiting = async (where: string, values: unknown[] = []) =>
    (
      await pool.query<Waiting>(
        `select pid, query, query_start::text as started from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and ${where}`,
        values,
      )
    ).rows;

  let holder = await hold();
  await holder.locked;
  return {
    async cancel(target) {
      const seen = new Set<string>();
      const unseen = async () =>
        (await waiting("application_name = 'shop'")).filter(({ pid, started }) => !seen.has(`${pid} ${started}`));
      let next: Awaited<ReturnType<typeof hold>> | undefined;
      try {
        for (;;) {
          await expect
            .poll(async () => (await unseen()).length, {
              message: `a statement of the shop waits, and one matches ${target}`,
            })
            .toBeGreaterThan(0);
          next = await hold();
          await expect.poll(async () => (await waiting("pid = $1", [next!.pid])).length).toBe(1);
          const ahead = await unseen();
          const match = ahead.find(({ query }) => target.test(query));
          if (match) {
            await pool.query("select pg_cancel_backend($1)", [match.pid]);
            return;
          }
          for (const { pid, started } of ahead) seen.add(`${pid} ${started}`);
          await release(holder);
          await next.locked;
          [holder, next] = [next, undefined];
        }
      } finally {
        await release(holder);
        if (next) await release(next);
        await pool.end();
      }
    },
  };
}
