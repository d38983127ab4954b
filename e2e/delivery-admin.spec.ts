import { formatMoney } from "../lib/money";
import { createAdmin, database, expect, shop, signInAsAdmin, test } from "./support";

/**
 * The back office's Delivery section, without JavaScript (its forms are plain forms): the merchant raises Benghazi's
 * fee, stops delivering to Kufra and turns pickup on with the shop's address; a fee that cannot be read and pickup
 * without its Arabic address are refused by field, with what was typed kept. The zones page shows the changes and
 * each is in the audit. Then cash on delivery: the merchant turns it on from the delivery page's link with a limit, a fee
 * and a deadline (hours out of range refused on their field, what was typed kept) and refuses it in Sabha. The fields'
 * rules and the audit's contents are tested on the database (lib/delivery/editing.test.ts, lib/cash/editing.test.ts).
 */

const ADMIN = { email: "delivery@medina.example", password: "a-strong-delivery-password" };
test.use({ javaScriptEnabled: false });
test.beforeAll(() => createAdmin(ADMIN.email, ADMIN.password));
// Other specs on this worker's database (the checkout's) price with the seeded zones: put them back.
test.afterEach(() =>
  database(async (pool) => {
    await pool.query(`update delivery_zones set fee_minor = 3500 where name_en = 'Benghazi'`);
    await pool.query(`update delivery_zones set enabled = true where name_en = 'Kufra'`);
    await pool.query(`update store_pickup set enabled = false, address_en = '', address_ar = '' where id = 1`);
    await pool.query(`update delivery_zones set cash_on_delivery = true where name_en = 'Sabha'`);
    await pool.query(
      `update cash_on_delivery set enabled = false, at_pickup = false, max_total_minor = null, fee_minor = 0,
       confirm_within_hours = 48 where id = 1`,
    );
  }),
);

test("the merchant changes Benghazi's fee, turns Kufra off and pickup on; the zones page shows it and the audit has it", async ({
  page,
}) => {
  const [{ last }] = await database(
    async (pool) => (await pool.query("select coalesce(max(id), 0)::int as last from delivery_events")).rows,
  );
  const row = (city: string) => page.getByTestId("zone-row").filter({ hasText: city });
  const result = page.getByTestId("delivery-result");

  await signInAsAdmin(page, ADMIN.email, ADMIN.password);
  await page.getByRole("link", { name: shop("admin.nav.delivery"), exact: true }).click();
  await expect(row("Benghazi").getByTestId("zone-fee")).toHaveText(formatMoney(3500, "en"));

  // Benghazi: a fee that is not a number is refused on its field, and what was typed stays.
  await row("Benghazi").getByRole("link").click();
  const fee = page.getByLabel(shop("admin.delivery.zoneForm.fields.fee"));
  await fee.fill("forty");
  await page.getByRole("button", { name: shop("admin.delivery.zoneForm.save") }).click();
  await expect(page.getByTestId("zone-error")).toContainText(shop("admin.delivery.problems.feeInvalid"));
  await expect(fee).toHaveValue("forty");
  await expect(page.getByLabel(shop("admin.delivery.zoneForm.fields.nameAr"))).toHaveValue("بنغازي");
  await fee.fill("42,50");
  await page.getByRole("button", { name: shop("admin.delivery.zoneForm.save") }).click();
  await expect(result).toHaveText(shop("admin.delivery.results.zone_saved"));
  await expect(row("Benghazi").getByTestId("zone-fee")).toHaveText(formatMoney(4250, "en"));

  // Kufra: off.
  await row("Kufra").getByRole("link").click();
  await page.getByLabel(shop("admin.delivery.zoneForm.fields.enabled")).uncheck();
  await page.getByRole("button", { name: shop("admin.delivery.zoneForm.save") }).click();
  await expect(result).toHaveText(shop("admin.delivery.results.zone_saved"));
  await expect(row("Kufra").getByTestId("zone-status")).toHaveText(shop("admin.delivery.zones.off"));
  await expect(row("Benghazi").getByTestId("zone-status")).toHaveText(shop("admin.delivery.zones.on"));

  // Pickup: on, but the Arabic address is missing; then given.
  const pickupField = (field: string) => page.getByLabel(shop(`admin.delivery.pickup.fields.${field}`));
  await pickupField("enabled").check();
  await pickupField("addressEn").fill("Souq Al-Turk, Old City, Tripoli");
  await page.getByRole("button", { name: shop("admin.delivery.pickup.save") }).click();
  await expect(page.getByTestId("pickup-error")).toContainText(shop("admin.delivery.problems.addressMissing"));
  await expect(pickupField("addressEn")).toHaveValue("Souq Al-Turk, Old City, Tripoli");
  await expect(pickupField("enabled")).toBeChecked();
  await pickupField("addressAr").fill("سوق الترك، المدينة القديمة، طرابلس");
  await page.getByRole("button", { name: shop("admin.delivery.pickup.save") }).click();
  await expect(result).toHaveText(shop("admin.delivery.results.pickup_saved"));
  await expect(pickupField("enabled")).toBeChecked();
  await expect(pickupField("addressAr")).toHaveValue("سوق الترك، المدينة القديمة، طرابلس");

  // The audit: who changed what, before and after; the refused submissions wrote nothing.
  const events = await database(
    async (pool) =>
      (
        await pool.query(
          `select e.type, e.by, e.data, z.name_en from delivery_events e left join delivery_zones z on z.id = e.zone_id
           where e.id > $1 order by e.id`,
          [last],
        )
      ).rows,
  );
  expect(events).toEqual([
    { type: "zone_edited", by: ADMIN.email, name_en: "Benghazi", data: { changes: { feeMinor: [3500, 4250] } } },
    { type: "zone_edited", by: ADMIN.email, name_en: "Kufra", data: { changes: { enabled: [true, false] } } },
    {
      type: "pickup_edited",
      by: ADMIN.email,
      name_en: null,
      data: {
        changes: {
          enabled: [false, true],
          addressEn: ["", "Souq Al-Turk, Old City, Tripoli"],
          addressAr: ["", "سوق الترك، المدينة القديمة، طرابلس"],
        },
      },
    },
  ]);
});

test("the merchant turns cash on delivery on with a limit, a fee and 24 hours to confirm, and refuses it in Sabha", async ({
  page,
}) => {
  const [{ last }] = await database(
    async (pool) => (await pool.query("select coalesce(max(id), 0)::int as last from delivery_events")).rows,
  );
  const field = (name: string) => page.getByLabel(shop(`admin.cash.form.fields.${name}`));
  const save = page.getByRole("button", { name: shop("admin.cash.form.save") });
  const sabha = page.getByTestId("zone-row").filter({ hasText: "Sabha" });

  await signInAsAdmin(page, ADMIN.email, ADMIN.password);
  await page.getByRole("link", { name: shop("admin.nav.delivery"), exact: true }).click();
  await expect(page.getByTestId("cash-summary")).toContainText(shop("admin.cash.summary.off"));
  await page.getByRole("link", { name: shop("admin.cash.summary.link") }).click();

  // Hours out of range: refused on their field, nothing stored, what was typed kept.
  await field("enabled").check();
  await field("maxTotal").fill("150.50");
  await field("fee").fill("5");
  await field("confirmWithinHours").fill("1000");
  await save.click();
  await expect(page.getByTestId("cash-error")).toContainText(shop("admin.cash.problems.hoursInvalid"));
  await expect(field("confirmWithinHours")).toHaveAttribute("aria-invalid", "true");
  await expect(field("maxTotal")).toHaveValue("150.50");
  await expect(field("enabled")).toBeChecked();
  await field("confirmWithinHours").fill("24");
  await save.click();
  await expect(page.getByTestId("cash-result")).toHaveText(shop("admin.cash.results.saved"));
  await expect(field("enabled")).toBeChecked();
  await expect(field("fee")).toHaveValue("5.00");
  await expect(page.getByTestId("cash-history")).toContainText(ADMIN.email);

  // Sabha: no cash there; the zones' list says so.
  await page.getByRole("link", { name: shop("admin.delivery.back") }).click();
  await sabha.getByRole("link").click();
  await page.getByLabel(shop("admin.delivery.zoneForm.fields.cashOnDelivery")).uncheck();
  await page.getByRole("button", { name: shop("admin.delivery.zoneForm.save") }).click();
  await expect(page.getByTestId("delivery-result")).toHaveText(shop("admin.delivery.results.zone_saved"));
  await expect(sabha.getByTestId("zone-cash")).toHaveText(shop("admin.cash.zones.refused"));
  await expect(page.getByTestId("cash-summary")).not.toContainText(shop("admin.cash.summary.off"));

  const events = await database(
    async (pool) =>
      (
        await pool.query(
          `select e.type, e.by, e.data, z.name_en from delivery_events e left join delivery_zones z on z.id = e.zone_id
           where e.id > $1 order by e.id`,
          [last],
        )
      ).rows,
  );
  expect(events).toEqual([
    {
      type: "cash_edited",
      by: ADMIN.email,
      name_en: null,
      data: {
        changes: {
          enabled: [false, true],
          maxTotalMinor: [null, 15_050],
          feeMinor: [0, 500],
          confirmWithinHours: [48, 24],
        },
      },
    },
    { type: "zone_edited", by: ADMIN.email, name_en: "Sabha", data: { changes: { cashOnDelivery: [true, false] } } },
  ]);
});
