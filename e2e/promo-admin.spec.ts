import { findForm, getPage, postForm, textOf, textsOf, valueOf } from "../testing/no-js-shop";
import { newOrderId } from "../lib/ids";
import { createAdmin, database, expect, shop, stack, test } from "./support";

/**
 * The back office's promo codes over HTTP, as a browser without JavaScript posts them (testing/no-js-shop.ts; no
 * browser is started): the merchant finds the section in the navigation, adds a code — refused first, by field and in
 * Arabic, with what was typed kept —, meets a code that exists in another case, then edits it; the list shows each
 * code's uses, the uses open orders hold and what is left, and the code's page shows who changed what. The fields'
 * rules, the audit's contents and the counting are tested on the database (lib/promo-codes/editing.test.ts).
 */

const ADMIN = { email: "promo@medina.example", password: "a-strong-promo-password" };
test.beforeAll(() => createAdmin(ADMIN.email, ADMIN.password));

/** Signs the merchant in on /admin/sign-in as a browser without JavaScript does. @returns the admin's cookie. */
async function adminCookie(): Promise<string> {
  const base = stack().shopUrl;
  const form = findForm(await getPage(`${base}/admin/sign-in`), "password")!;
  const body = new FormData();
  for (const [name, value] of [...form.hidden, ["email", ADMIN.email], ["password", ADMIN.password]]) {
    body.append(name!, value!);
  }
  const answer = await fetch(`${base}/admin/sign-in`, {
    method: "POST",
    body,
    headers: { Origin: base, Accept: "text/html" },
    redirect: "manual",
  });
  await answer.arrayBuffer();
  const cookie = answer.headers.getSetCookie().find((header) => header.startsWith("admin_session="));
  if (answer.status !== 303 || !cookie) throw new Error(`the sign-in answered ${answer.status} without a session`);
  return cookie.split(";")[0]!;
}

test("the merchant adds a code (refused by field first, in Arabic), edits it; the list counts its uses and the page its changes", async () => {
  const base = stack().shopUrl;
  const cookie = await adminCookie();
  const code = `EID${Date.now() % 100_000}`;

  // The section is in the navigation.
  const home = await getPage(`${base}/admin`, cookie);
  expect(textsOf(home, 'nav a[href="/admin/promo-codes"]')).toEqual([shop("admin.nav.promo", "en")]);

  // Refused in Arabic: each field says what is wrong; what was typed stays.
  const newPage = `${base}/admin/promo-codes/new`;
  const form = findForm(await getPage(newPage, cookie, 200, "ar"), "code")!;
  expect(form.radios.kind).toEqual(["percent", "amount", "free_delivery"]);
  const fields = (values: Record<string, string>): [string, string][] => [
    ...form.hidden,
    ["enabled", "on"],
    ...Object.entries(values),
  ];
  const refused = await postForm(
    newPage,
    fields({ code: "عيد", kind: "amount", value: "", startsAt: "2026-03-20T10:00", endsAt: "2026-03-19T10:00" }),
    cookie,
    "ar",
  );
  expect(refused.status).toBe(200);
  const summary = textOf(refused.html, '[data-testid="promo-error"]')!;
  for (const problem of ["codeInvalid", "amountMissing", "endsBeforeStart"]) {
    expect(summary).toContain(shop(`admin.promo.problems.${problem}`, "ar"));
  }
  expect(valueOf(refused.html, "code")).toBe("عيد");
  expect(valueOf(refused.html, "startsAt")).toBe("2026-03-20T10:00");

  // Added, as typed in lower case; the same code in another case is refused on its field.
  const valid = { code: code.toLowerCase(), kind: "percent", value: "10", maxUses: "3", maxUsesPerCustomer: "1" };
  const created = await postForm(newPage, fields(valid), cookie);
  expect(created.status).toBe(303);
  const again = await postForm(newPage, fields({ ...valid, kind: "free_delivery" }), cookie);
  expect(textOf(again.html, "#promo-code-error")).toBe(shop("admin.promo.problems.codeTaken", "en"));

  // Two orders carry it: one paid (a use), one whose payment page is alive (held): 1 of 3 left.
  const [{ id }] = await database(
    async (pool) => (await pool.query("select id from promo_codes where code = $1", [code])).rows,
  );
  await database(async (pool) => {
    for (const status of ["paid", "pending"]) {
      await pool.query(
        `insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, payment_token,
           payment_expires_at, claim_expires_at, promo_code_id, promo_code, discount_minor)
         values ($1, 'promo', $1, $2, 3825, 'LYD', 'en', 'pt-' || $1, now() + interval '10 minutes', now(), $3, $4, 425)`,
        [newOrderId(), status, id, code],
      );
    }
  });
  const row = async () => {
    const html = await getPage(`${base}/admin/promo-codes`, cookie);
    const at = textsOf(html, '[data-testid="promo-row"] th').indexOf(code);
    expect(at).toBeGreaterThanOrEqual(0);
    const cell = (testId: string) => textsOf(html, `[data-testid="${testId}"]`)[at];
    return {
      off: cell("promo-off"),
      used: cell("promo-used"),
      held: cell("promo-held"),
      left: cell("promo-left"),
      status: cell("promo-status"),
    };
  };
  expect(await row()).toEqual({
    off: "10% off the products",
    used: "1",
    held: "1",
    left: "1" + "1 per customer",
    status: shop("admin.promo.on", "en"),
  });

  // Edited: more uses, and off.
  const editPage = `${base}/admin/promo-codes/${id}`;
  const edit = findForm(await getPage(editPage, cookie), "code")!;
  const saved = await postForm(editPage, [...edit.hidden, ...Object.entries({ ...valid, code, maxUses: "5" })], cookie);
  expect(saved.status).toBe(303);
  expect(await row()).toMatchObject({ left: "3" + "1 per customer", status: shop("admin.promo.off", "en") });
  const history = textOf(await getPage(editPage, cookie), '[data-testid="promo-history"]')!;
  expect(history).toContain(ADMIN.email);
  expect(history).toContain("Uses in all: 3 → 5");
  expect(history).toContain("On: customers can use it: On → Off");
});
