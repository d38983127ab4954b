import { expect, test } from "@playwright/test";
import { Pool } from "pg";
import { DATABASE_URL, EMULATOR_URL, shopEnv } from "../playwright.config";
import { addToCart, emulator, paymentPage, shop } from "./support";

/**
 * The shop's database goes away while a customer is on the payment page. Without JavaScript (where the error page
 * shows nothing), the customer still reads that the return was not recorded and that the payment is safe.
 */

/** The shop's database, reached directly (never through a pooler, which would hide the outage from its clients). */
const direct = new URL((shopEnv as { DATABASE_URL_UNPOOLED?: string }).DATABASE_URL_UNPOOLED ?? DATABASE_URL);
const shopDatabase = decodeURIComponent(direct.pathname.slice(1));

/** Runs statements from the same server's `template1`, so that the shop's own database can be closed meanwhile. */
async function onServer(...statements: string[]): Promise<void> {
  const url = new URL(direct);
  url.pathname = "/template1";
  const pool = new Pool({ connectionString: url.href, max: 1 });
  try {
    for (const statement of statements) await pool.query(statement);
  } finally {
    await pool.end();
  }
}

const identifier = `"${shopDatabase.replaceAll('"', '""')}"`;
const literal = `'${shopDatabase.replaceAll("'", "''")}'`;
/** The outage: the shop's database refuses new connections, and the shop's open ones are closed. */
const closeDatabase = () =>
  onServer(
    `alter database ${identifier} allow_connections false`,
    `select pg_terminate_backend(pid) from pg_stat_activity where datname = ${literal} and pid <> pg_backend_pid()`,
  );
const reopenDatabase = () => onServer(`alter database ${identifier} allow_connections true`);

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test.afterEach(async () => {
    await reopenDatabase();
  });

  test('a database outage: the return from the payment page shows "your payment is safe", not an error', async ({
    page,
    request,
  }) => {
    await emulator.reset(request);
    await addToCart(page, "saffron", 1, "en");
    await page.goto("/checkout");
    await page.getByRole("radio", { name: shop("gateways.sadad", "en") }).check();
    await page.getByRole("button", { name: shop("checkout.submit", "en") }).click();
    await expect(page).toHaveURL(new RegExp(`^${EMULATOR_URL}/`));
    await page.getByRole("button", { name: paymentPage("en").continue }).click();

    await closeDatabase();
    const landing = page.waitForResponse((response) =>
      /\/orders\/ord_[0-9a-z]+\?outcome=not_recorded$/.test(response.url()),
    );
    await page.getByRole("button", { name: paymentPage("en").pay, exact: true }).click();
    expect((await landing).status()).toBe(200);
    await expect(page).toHaveURL(/\/orders\/ord_[0-9a-z]+\?outcome=not_recorded$/);
    await expect(page.getByText(shop("order.notices.not_recorded", "en"))).toBeVisible();
    await expect(page.getByRole("heading", { name: shop("order.unavailable.title", "en") })).toBeVisible();
    await expect(page.getByText(shop("order.unavailable.text", "en"))).toBeVisible();

    // The database is back: the same link shows the order (the service's webhook retries until it is recorded).
    await reopenDatabase();
    await page.getByRole("link", { name: shop("order.unavailable.reload", "en") }).click();
    await expect(page.getByTestId("order-status")).toBeVisible();
    await expect(page.getByText(shop("order.notices.not_recorded", "en"))).toBeVisible();
  });
});
