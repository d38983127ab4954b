import { formatWeights, JS_BUDGET_BYTES, kb, measurePageWeight, measureShopPages } from "../testing/page-weight";
import { createAdmin, expect, signInAsAdmin, stack, test } from "./support";

/**
 * Page weight budget: every page of the shop ships at most 150 KB of gzipped JavaScript to a modern browser.
 * Measured by testing/page-weight.ts, the same code `npm run bench` uses (docs/benchmarks.md): the page's scripts
 * (not the noModule polyfill) and stylesheets, each gzipped at level 9. The cart and the order are made the way a
 * browser without JavaScript makes them: the shop's own forms, then Pay on the emulator's payment page.
 */
test("every page ships at most 150 KB of gzipped JavaScript", async ({ baseURL, request }) => {
  expect((await request.post(`${stack().emulatorUrl}/__emulator/reset`)).ok()).toBe(true);

  const pages = await measureShopPages(baseURL!, stack().emulatorUrl);
  console.log(`Page weight (gzip level 9; budget ${kb(JS_BUDGET_BYTES)} of JS a page)\n${formatWeights(pages)}`);

  for (const page of pages) {
    expect.soft(page.status, `${page.name} answers ${page.expectedStatus}`).toBe(page.expectedStatus);
    expect.soft(page.js.files.length, `${page.name} loads its scripts`).toBeGreaterThan(0);
    if (page.budgeted) {
      expect
        .soft(page.js.gzip, `${page.name} (${page.path}): ${kb(page.js.gzip)} of gzipped JS`)
        .toBeLessThanOrEqual(JS_BUDGET_BYTES);
    }
  }
});

test("the back office's home ships at most 150 KB of gzipped JavaScript: its chart is drawn on the server", async ({
  page,
  baseURL,
}) => {
  const admin = { email: "weight@medina.example", password: "a-strong-weight-password" };
  await createAdmin(admin.email, admin.password);
  await signInAsAdmin(page, admin.email, admin.password, "en");
  // The admin cookie's path is /admin: ask for the cookies of a page there.
  const cookie = (await page.context().cookies(`${baseURL}/admin`))
    .map(({ name, value }) => `${name}=${value}`)
    .join("; ");
  const home = await measurePageWeight(`${baseURL}/admin?period=30d`, cookie);
  console.log(`The back office's home: ${kb(home.js.gzip)} of gzipped JS in ${home.js.files.length} files`);
  expect(home.status).toBe(200);
  expect(home.js.gzip, `/admin: ${kb(home.js.gzip)} of gzipped JS`).toBeLessThanOrEqual(JS_BUDGET_BYTES);
});
