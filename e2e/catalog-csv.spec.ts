import type { Page } from "@playwright/test";
import { createAdmin, expect, shop, signInAsAdmin, stack, test } from "./support";

/**
 * The merchant moves products in from a spreadsheet: the export downloads as CSV with a byte order mark; a file with
 * problems is checked in Arabic and names each problem by row and column, and nothing can be applied; the corrected
 * file shows what it would add, "Apply" imports it, and the shop's home page lists the new visible product at once
 * (and not the hidden one).
 */

const ADMIN = { email: "catalog-csv-admin@medina.example", password: "catalog-csv-admin-password-1" };
/** The largest file the import reads, as its label says (lib/catalog/csv.ts, MAX_CATALOG_CSV_BYTES). */
const CSV_KB = 4 * 1024;
const HEADER = "slug,nameEn,nameAr,descriptionEn,descriptionAr,price,kind,visible,stock,sortOrder";
const fill = (template: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((text, [name, value]) => text.replace(`{${name}}`, String(value)), template);

async function uploadFile(page: Page, lang: "en" | "ar", name: string, rows: string[]) {
  await page.goto("/admin/products/import");
  await page
    .getByLabel(fill(shop("admin.products.csv.file", lang), { kb: CSV_KB }))
    .setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from([HEADER, ...rows].join("\r\n")) });
  await page.getByRole("button", { name: shop("admin.products.csv.check", lang) }).click();
  await expect(page).toHaveURL(/\/admin\/products\/import\/imp_/);
}

test("a catalogue CSV: export, a dry run naming each problem, then an import the shop shows at once", async ({
  page,
}) => {
  await createAdmin(ADMIN.email, ADMIN.password);
  await signInAsAdmin(page, ADMIN.email, ADMIN.password, "en");
  const run = Date.now().toString(36);

  await page.goto("/admin/products/import");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("catalog-export").click()]);
  expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.csv$/);
  const exported = await (await download.createReadStream()).toArray();
  // Every cell quoted (lib/csv.ts), the columns this test writes first, the newer ones after them.
  const quotedHeader = HEADER.split(",")
    .map((column) => `"${column}"`)
    .join(",");
  expect(Buffer.concat(exported).toString("utf8").startsWith(`\uFEFF${quotedHeader},`)).toBe(true);

  // In Arabic: a price that is not one, and a slug twice. Every problem by row and column; no Apply.
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "ar", url: stack().shopUrl }]);
  await uploadFile(page, "ar", "bad.csv", [
    `csv-tea-${run},Mint tea,شاي بالنعناع,,,١٢٫٥٠,physical,true,3,0`,
    `csv-cup-${run},Tea cup,كوب شاي,,,abc,physical,true,,0`,
    `csv-tea-${run},Mint tea again,شاي,,,5,physical,true,,0`,
  ]);
  const problems = page.getByTestId("import-problems").getByRole("row");
  await expect(problems).toHaveCount(3); // the header and two problems
  await expect(problems.nth(1)).toContainText("3");
  await expect(problems.nth(1)).toContainText("price");
  await expect(problems.nth(1)).toContainText(shop("admin.products.problems.priceInvalid", "ar"));
  await expect(problems.nth(2)).toContainText("4");
  await expect(problems.nth(2)).toContainText(shop("admin.products.csv.problems.duplicateSlug", "ar"));
  await expect(page.getByRole("button", { name: /^تطبيق/ })).toHaveCount(0);

  // In English: the corrected file adds two products; Apply imports them and the shop sells the tea.
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: stack().shopUrl }]);
  await uploadFile(page, "en", "good.csv", [
    `csv-tea-${run},Mint tea,شاي بالنعناع,Fresh,طازج,١٢٫٥٠,physical,true,3,0`,
    `csv-cup-${run},=HYPERLINK("http://evil.example"),كوب شاي,,,4,50,physical,false,,0`.replace(",4,50,", ',"4,50",'),
  ]);
  await expect(page.getByTestId("import-counts")).toContainText(`${shop("admin.products.csv.counts.create", "en")}2`);
  await expect(page.getByTestId("import-rows")).toContainText("LYD 12.50");
  await page.getByRole("button", { name: /^Apply: import 2 products$/ }).click();
  await expect(page.getByRole("status")).toContainText(
    fill(shop("admin.products.csv.result.applied", "en"), { created: 2, updated: 0 }),
  );
  await expect(page.getByRole("button", { name: /^Apply/ })).toHaveCount(0);

  await page.goto("/");
  await expect(page.locator(`a[href="/products/csv-tea-${run}"]`).first()).toBeVisible();
  await expect(page.locator(`a[href="/products/csv-cup-${run}"]`)).toHaveCount(0); // imported hidden
  await page.goto(`/products/csv-tea-${run}`);
  await expect(page.getByRole("heading", { name: "Mint tea" })).toBeVisible();
});
