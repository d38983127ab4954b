import type { Element } from "domhandler";
import { formatMoney } from "../lib/money";
import {
  adminCookie,
  formAsShown,
  getPage,
  hrefOf,
  nodeText,
  parseHtml,
  postForm,
  select,
  textOf,
  valueOf,
} from "../testing/no-js-shop";
import { createAdmin, database, expect, shop, stack, test } from "./support";

/**
 * The back office's Delivery section, as a browser without JavaScript uses it (its forms are plain forms, posted by
 * testing/no-js-shop.ts): the merchant raises Benghazi's fee, stops delivering to Kufra and turns pickup on with the
 * shop's address; a fee that cannot be read and pickup without its Arabic address are refused by field, with what was
 * typed kept. The zones page shows the changes and each is in the audit. Then cash on delivery: the merchant turns it
 * on from the delivery page's link with a limit, a fee and a deadline (hours out of range refused on their field, what
 * was typed kept) and refuses it in Sabha. The fields' rules and the audit's contents are tested on the database
 * (lib/delivery/editing.test.ts, lib/cash/editing.test.ts).
 */

const ADMIN = { email: "delivery@medina.example", password: "a-strong-delivery-password" };
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

/** The back office as a signed-in merchant's browser without JavaScript: pages read, forms posted, links followed. */
async function backOffice() {
  const base = stack().shopUrl;
  const cookie = await adminCookie(base, ADMIN.email, ADMIN.password);
  const open = (path: string) => getPage(new URL(path, base).href, cookie);
  return {
    open,
    /** The delivery page, by the back office's navigation from its home. */
    delivery: async () => open(hrefOf(await open("/admin"), shop("admin.nav.delivery"))),
    /**
     * Submits the form of the page at `path` (its `html`) that has a field `fieldName`, after `changes`. @returns the
     * page the browser then shows: the one the action sends it to, or the form again with its messages.
     */
    async submit(path: string, html: string, fieldName: string, changes: Record<string, string | boolean>) {
      const answer = await postForm(new URL(path, base).href, formAsShown(html, fieldName, changes), cookie);
      if (answer.status === 303 && answer.location) return { path: answer.location, html: await open(answer.location) };
      expect(answer.status).toBe(200);
      return { path, html: answer.html };
    },
  };
}

/** The zones list's row of `city`. */
function zoneRow(html: string, city: string): Element {
  const row = select('[data-testid="zone-row"]', parseHtml(html)).find((each) => nodeText(each).includes(city));
  if (!row) throw new Error(`no zone row for ${city}`);
  return row;
}
/** The text of the cell `testId` in `city`'s row, as shown. */
const zoneCell = (html: string, city: string, testId: string) =>
  nodeText(select(`[data-testid="${testId}"]`, zoneRow(html, city))[0]!).trim();
/** The edit page of `city`, its row's link. */
const zoneLink = (html: string, city: string) => select("a[href]", zoneRow(html, city))[0]!.attribs.href!;
/** The text of the element `testId`, as shown, or "" when the page has none. */
const shown = (html: string, testId: string) => (textOf(html, `[data-testid="${testId}"]`) ?? "").trim();

test("the merchant changes Benghazi's fee, turns Kufra off and pickup on; the zones page shows it and the audit has it", async () => {
  const [{ last }] = await database(
    async (pool) => (await pool.query("select coalesce(max(id), 0)::int as last from delivery_events")).rows,
  );
  const office = await backOffice();
  let delivery = await office.delivery();
  expect(zoneCell(delivery, "Benghazi", "zone-fee")).toBe(formatMoney(3500, "en"));

  // Benghazi: a fee that is not a number is refused on its field, and what was typed stays.
  const benghazi = zoneLink(delivery, "Benghazi");
  const refused = await office.submit(benghazi, await office.open(benghazi), "fee", { fee: "forty" });
  expect(shown(refused.html, "zone-error")).toContain(shop("admin.delivery.problems.feeInvalid"));
  expect(valueOf(refused.html, "fee")).toBe("forty");
  expect(valueOf(refused.html, "nameAr")).toBe("بنغازي");
  const saved = await office.submit(benghazi, refused.html, "fee", { fee: "42,50" });
  expect(saved.path).toMatch(/^\/admin\/delivery\?/);
  delivery = saved.html;
  expect(shown(delivery, "delivery-result")).toBe(shop("admin.delivery.results.zone_saved"));
  expect(zoneCell(delivery, "Benghazi", "zone-fee")).toBe(formatMoney(4250, "en"));

  // Kufra: off.
  const kufra = zoneLink(delivery, "Kufra");
  delivery = (await office.submit(kufra, await office.open(kufra), "fee", { enabled: false })).html;
  expect(shown(delivery, "delivery-result")).toBe(shop("admin.delivery.results.zone_saved"));
  expect(zoneCell(delivery, "Kufra", "zone-status")).toBe(shop("admin.delivery.zones.off"));
  expect(zoneCell(delivery, "Benghazi", "zone-status")).toBe(shop("admin.delivery.zones.on"));

  // Pickup: on, but the Arabic address is missing; then given.
  const pickup = await office.submit("/admin/delivery", delivery, "addressEn", {
    enabled: true,
    addressEn: "Souq Al-Turk, Old City, Tripoli",
  });
  expect(shown(pickup.html, "pickup-error")).toContain(shop("admin.delivery.problems.addressMissing"));
  expect(valueOf(pickup.html, "addressEn")).toBe("Souq Al-Turk, Old City, Tripoli");
  expect(formAsShown(pickup.html, "addressEn")).toContainEqual(["enabled", "on"]);
  delivery = (
    await office.submit("/admin/delivery", pickup.html, "addressEn", {
      addressAr: "سوق الترك، المدينة القديمة، طرابلس",
    })
  ).html;
  expect(shown(delivery, "delivery-result")).toBe(shop("admin.delivery.results.pickup_saved"));
  expect(formAsShown(delivery, "addressEn")).toContainEqual(["enabled", "on"]);
  expect(valueOf(delivery, "addressAr")).toBe("سوق الترك، المدينة القديمة، طرابلس");

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

test("the merchant turns cash on delivery on with a limit, a fee and 24 hours to confirm, and refuses it in Sabha", async () => {
  const [{ last }] = await database(
    async (pool) => (await pool.query("select coalesce(max(id), 0)::int as last from delivery_events")).rows,
  );
  const office = await backOffice();
  let delivery = await office.delivery();
  expect(shown(delivery, "cash-summary")).toContain(shop("admin.cash.summary.off"));
  const cashPage = hrefOf(delivery, shop("admin.cash.summary.link"));

  // Hours out of range: refused on their field, nothing stored, what was typed kept.
  const refused = await office.submit(cashPage, await office.open(cashPage), "confirmWithinHours", {
    enabled: true,
    maxTotal: "150.50",
    fee: "5",
    confirmWithinHours: "1000",
  });
  expect(shown(refused.html, "cash-error")).toContain(shop("admin.cash.problems.hoursInvalid"));
  expect(select('[name="confirmWithinHours"]', parseHtml(refused.html))[0]!.attribs["aria-invalid"]).toBe("true");
  expect(valueOf(refused.html, "maxTotal")).toBe("150.50");
  expect(formAsShown(refused.html, "confirmWithinHours")).toContainEqual(["enabled", "on"]);
  const cash = (await office.submit(cashPage, refused.html, "confirmWithinHours", { confirmWithinHours: "24" })).html;
  expect(shown(cash, "cash-result")).toBe(shop("admin.cash.results.saved"));
  expect(formAsShown(cash, "confirmWithinHours")).toContainEqual(["enabled", "on"]);
  expect(valueOf(cash, "fee")).toBe("5.00");
  expect(shown(cash, "cash-history")).toContain(ADMIN.email);

  // Sabha: no cash there; the zones' list says so.
  delivery = await office.open(hrefOf(cash, shop("admin.delivery.back")));
  const sabha = zoneLink(delivery, "Sabha");
  delivery = (await office.submit(sabha, await office.open(sabha), "fee", { cashOnDelivery: false })).html;
  expect(shown(delivery, "delivery-result")).toBe(shop("admin.delivery.results.zone_saved"));
  expect(zoneCell(delivery, "Sabha", "zone-cash")).toBe(shop("admin.cash.zones.refused"));
  expect(shown(delivery, "cash-summary")).not.toContain(shop("admin.cash.summary.off"));

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
