import {
  adminCookie,
  formAsShown,
  getPage,
  nodeText,
  parseHtml,
  postForm,
  select,
  textOf,
  textsOf,
} from "../testing/no-js-shop";
import { createAdmin, expect, shop, stack, test } from "./support";

/**
 * The merchant moves products in from a spreadsheet: the export downloads as CSV with a byte order mark; a file with
 * problems is checked in Arabic and names each problem by row and column, and nothing can be applied; the corrected
 * file shows what it would add, "Apply" imports it, and the shop's home page lists the new visible product at once
 * (and not the hidden one). The import's forms work without JavaScript: the merchant's browser is driven as one
 * without it (testing/no-js-shop.ts).
 */

const ADMIN = { email: "catalog-csv-admin@medina.example", password: "catalog-csv-admin-password-1" };
/** The largest file the import reads, as its label says (lib/catalog/csv.ts, MAX_CATALOG_CSV_BYTES). */
const CSV_KB = 4 * 1024;
const HEADER = "slug,nameEn,nameAr,descriptionEn,descriptionAr,price,kind,visible,stock,sortOrder";
const fill = (template: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((text, [name, value]) => text.replace(`{${name}}`, String(value)), template);

test("a catalogue CSV: export, a dry run naming each problem, then an import the shop shows at once", async () => {
  await createAdmin(ADMIN.email, ADMIN.password);
  const base = stack().shopUrl;
  const admin = await adminCookie(base, ADMIN.email, ADMIN.password);
  const run = Date.now().toString(36);
  const importUrl = `${base}/admin/products/import`;

  const exportLink = select('[data-testid="catalog-export"]', parseHtml(await getPage(importUrl, admin)))[0]!;
  const download = await fetch(new URL(exportLink.attribs.href!, base), { headers: { Cookie: admin } });
  expect(download.headers.get("content-disposition")).toMatch(
    /^attachment; filename="products-\d{4}-\d{2}-\d{2}\.csv"/,
  );
  const exported = Buffer.from(await download.arrayBuffer());
  // Every cell quoted (lib/csv.ts), the columns this test writes first, the newer ones after them.
  const quotedHeader = HEADER.split(",")
    .map((column) => `"${column}"`)
    .join(",");
  expect(exported.toString("utf8").startsWith(`\uFEFF${quotedHeader},`)).toBe(true);

  /** Checks a file of `rows` in `lang`, as the import page's form sends it. @returns the check's page and address. */
  const uploadFile = async (lang: "en" | "ar", name: string, rows: string[]) => {
    const cookie = `NEXT_LOCALE=${lang}; ${admin}`;
    const form = await getPage(importUrl, cookie);
    // The file's field, named with the largest file it reads.
    const fileLabel = select("label", parseHtml(form)).find((label) => select('input[name="file"]', label).length > 0);
    expect(nodeText(fileLabel!).trim()).toBe(fill(shop("admin.products.csv.file", lang), { kb: CSV_KB }));
    const file = new File([Buffer.from([HEADER, ...rows].join("\r\n"))], name, { type: "text/csv" });
    const button = { button: shop("admin.products.csv.check", lang) };
    const checked = await postForm(importUrl, [...formAsShown(form, button), ["file", file]], cookie);
    expect(checked.location).toMatch(/^\/admin\/products\/import\/imp_/);
    return {
      url: new URL(checked.location!, base).href,
      html: await getPage(new URL(checked.location!, base).href, cookie),
    };
  };
  const buttons = (html: string) => select("button", parseHtml(html)).map((button) => nodeText(button).trim());

  // In Arabic: a price that is not one, and a slug twice. Every problem by row and column; no Apply.
  const bad = await uploadFile("ar", "bad.csv", [
    `csv-tea-${run},Mint tea,شاي بالنعناع,,,١٢٫٥٠,physical,true,3,0`,
    `csv-cup-${run},Tea cup,كوب شاي,,,abc,physical,true,,0`,
    `csv-tea-${run},Mint tea again,شاي,,,5,physical,true,,0`,
  ]);
  const problems = textsOf(bad.html, '[data-testid="import-problems"] tr');
  expect(problems).toHaveLength(3); // the header and two problems
  expect(problems[1]).toContain("3");
  expect(problems[1]).toContain("price");
  expect(problems[1]).toContain(shop("admin.products.problems.priceInvalid", "ar"));
  expect(problems[2]).toContain("4");
  expect(problems[2]).toContain(shop("admin.products.csv.problems.duplicateSlug", "ar"));
  expect(buttons(bad.html).filter((text) => text.startsWith("تطبيق"))).toEqual([]);

  // In English: the corrected file adds two products; Apply imports them and the shop sells the tea.
  const good = await uploadFile("en", "good.csv", [
    `csv-tea-${run},Mint tea,شاي بالنعناع,Fresh,طازج,١٢٫٥٠,physical,true,3,0`,
    `csv-cup-${run},=HYPERLINK("http://evil.example"),كوب شاي,,,4,50,physical,false,,0`.replace(",4,50,", ',"4,50",'),
  ]);
  expect(textOf(good.html, '[data-testid="import-counts"]')).toContain(
    `${shop("admin.products.csv.counts.create", "en")}2`,
  );
  // Spaces as a reader sees them: the amount is written with a no-break space.
  expect(textOf(good.html, '[data-testid="import-rows"]')!.replace(/\s+/g, " ")).toContain("LYD 12.50");
  expect(buttons(good.html)).toContain("Apply: import 2 products");
  const applied = await postForm(good.url, formAsShown(good.html, { button: "Apply: import 2 products" }), admin);
  expect(applied.status).toBe(303);
  const done = await getPage(new URL(applied.location!, base).href, admin);
  expect(textOf(done, "[role=status]")).toContain(
    fill(shop("admin.products.csv.result.applied", "en"), { created: 2, updated: 0 }),
  );
  expect(buttons(done).filter((text) => text.startsWith("Apply"))).toEqual([]);

  const home = await getPage(`${base}/`);
  expect(home).toContain(`href="/products/csv-tea-${run}"`);
  expect(home).not.toContain(`href="/products/csv-cup-${run}"`); // imported hidden
  expect(textsOf(await getPage(`${base}/products/csv-tea-${run}`), "h1")).toContain("Mint tea");
});
