import { createHmac } from "node:crypto";
import { parse } from "csv-parse/sync";
import { asc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { Pool } from "pg";
import { describe, expect, it } from "vitest";
import { read as readSpreadsheet, utils as spreadsheetUtils } from "xlsx";
import { createDb } from "../db/client";
import * as schema from "../db/schema";
import { orderEvents, orderLines } from "../db/schema";
import { resolveFlag } from "../orders/flags";
import { recordFulfilmentStep } from "../orders/fulfilment";
import { settle } from "../orders/settle";
import { receiveWebhook } from "../orders/webhook";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { isFormula, spreadsheetCells } from "../../testing/spreadsheet";
import {
  exportFileName,
  exportOrdersCsv,
  findOrderForAdmin,
  lineNameIn,
  listOrders,
  parseOrderListQuery,
} from "./orders";

/** What the back office's order page reads (app/admin/orders/[id]/page.tsx), against a real database. */

const t = setUpTestDatabase();
const SECRET = "whsec-admin-test-0123456789";

async function deliver(fields: Record<string, unknown>) {
  const raw = JSON.stringify({
    event: "payment.success",
    status: "success",
    amount: 18.75,
    currency: "LYD",
    transaction_id: "TXN-7",
    ...fields,
  });
  return receiveWebhook(
    t.db,
    new TextEncoder().encode(raw),
    createHmac("sha256", SECRET).update(raw).digest("hex"),
    SECRET,
  );
}

describe("the gateway the customer paid with", () => {
  it.each([["payment_gateway"], ["gateway"]])(
    "is recorded from the webhook's %s when the customer picked it on the payment page",
    async (field) => {
      const { id, paymentToken } = await storeOrder(t.db, { paymentGateway: null });
      expect(await deliver({ token: paymentToken, [field]: "edfali" })).toEqual({
        httpStatus: 200,
        outcome: "confirmed",
      });
      const order = await findOrderForAdmin(t.db, id);
      expect(order).toMatchObject({ status: "paid", paymentGateway: null, payment: { gateway: "edfali" } });
      expect(order!.events.at(-1)!.data).toMatchObject({ verified: true, gateway: "edfali", to: "paid" });
    },
  );

  it("is unknown until a verified delivery pays the order", async () => {
    const { id, paymentToken } = await storeOrder(t.db, { paymentGateway: "sadad" });
    expect(await deliver({ token: paymentToken, payment_gateway: "sadad", amount: 1 })).toMatchObject({
      outcome: "amount_mismatch",
    });
    expect(await findOrderForAdmin(t.db, id)).toMatchObject({ paymentGateway: "sadad", payment: null });
  });
});

describe("the orders list", () => {
  const cursor = (at: string, id: string) => Buffer.from(`${at}|${id}`).toString("base64url");
  const list = (params: Record<string, string>) => {
    // As the page does: read the address, then list what could be read.
    const { query, ignored } = parseOrderListQuery(params);
    return listOrders(t.db, query).then((page) => ({ ...page, ignored }));
  };

  it.each([
    ["a NUL", "a\u0000b"],
    ["another control character", "pt-\u0007"],
    ["a lone surrogate", "pt-\ud800"],
  ])("answers a search with %s with the list and names the search it could not read", async (_name, q) => {
    const page = await list({ q });
    expect(page.ignored).toEqual(["q"]);
    expect(page.count).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ["year −271821", "-271821-04-20T00:00:00.000Z"],
    ["year +275760", "+275760-09-13T00:00:00.000Z"],
    ["before 1970", "1969-12-31T23:59:59.999Z"],
  ])("treats a cursor dated %s as unreadable, never as a query the database refuses", async (_name, at) => {
    const { id } = await storeOrder(t.db);
    for (const edge of ["before", "after"]) expect((await list({ [edge]: cursor(at, id) })).ignored).toEqual([edge]);
  });

  it("adds up only paid orders in the total: cancelled, expired and unconfirmed ones are not money", async () => {
    const email = "totals@shop.ly";
    const amounts = {
      paid: 1_000,
      cancelled: 2_000,
      expired: 4_000,
      pending: 8_000,
      awaiting_confirmation: 16_000,
    } as const;
    for (const [status, amountMinor] of Object.entries(amounts))
      await storeOrder(t.db, { status: status as keyof typeof amounts, amountMinor, email });
    await storeOrder(t.db, { status: "paid", amountMinor: 32_000, email });
    expect(await list({ q: email })).toMatchObject({ count: 6, totalMinor: 33_000 });
    expect(await list({ q: email, status: "cancelled" })).toMatchObject({ count: 1, totalMinor: 0 });
  });

  it("counts and adds up every order, or one status's, from an index alone: no page reads the whole table", async () => {
    // The totals query as listOrders sends it, caught on its way to the database.
    const sent: { sql: string; params: unknown[] }[] = [];
    const db = drizzle(t.pool, {
      schema,
      casing: "snake_case",
      logger: { logQuery: (query, params) => sent.push({ sql: query, params }) },
    });
    for (const params of [{}, { status: "paid" }]) await listOrders(db, parseOrderListQuery(params).query);
    const totals = sent.filter((query) => query.sql.startsWith("select count(*)"));
    expect(totals).toHaveLength(2);
    // A table this small is read whole whatever its indexes: with the whole-table ways closed, and the visibility map
    // made (as autovacuum keeps it on a real shop's table), the planner shows whether an index can answer alone.
    await t.pool.query("vacuum analyze orders");
    const client = await t.pool.connect();
    try {
      await client.query("set enable_seqscan = off; set enable_bitmapscan = off");
      for (const { sql: query, params } of totals) {
        const { rows } = await client.query<{ "QUERY PLAN": string }>(`explain ${query}`, params);
        expect(rows.map((row) => row["QUERY PLAN"]).join("\n")).toContain(
          "Index Only Scan using orders_status_created",
        );
      }
    } finally {
      client.release(true);
    }
  });
});

describe("the CSV as the merchant opens it", () => {
  /** The export read back as a spreadsheet would: the header, and each order's row by its id. */
  async function exported(query: Parameters<typeof exportOrdersCsv>[1] = {}) {
    const text = await new Response(exportOrdersCsv(t.db, query)).text();
    const [header, ...rows] = parse(text) as string[][];
    return {
      header,
      row: (id: string) => Object.fromEntries(header!.map((name, i) => [name, rows.find((r) => r[0] === id)![i]])),
    };
  }
  /** A time as Libya's clock shows it (UTC+2 since 2013), to the second: written out by hand. */
  const libya = (date: Date) => new Date(date.getTime() + 2 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
  const paidAt = async (id: string) =>
    (await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id))).find(
      (event) => event.data.to === "paid",
    )!.at;

  it("carries the payment's reference, the gateway the customer paid with, and Libya's times with their offset", async () => {
    // Paid through the webhook, the gateway chosen on the payment page (none at checkout).
    const byWebhook = await storeOrder(t.db, {
      paymentGateway: null,
      fullName: "Aisha Ben Ali",
      email: "aisha@example.ly",
      createdAt: new Date("2026-11-25T19:30:00.456Z"),
    });
    await t.db.insert(orderLines).values({
      orderId: byWebhook.id,
      position: 0,
      productSlug: "saffron",
      name: "Saffron threads, 2 g",
      unitMinor: 1875,
      quantity: 1,
    });
    await deliver({ token: byWebhook.paymentToken, gateway: "edfali", transaction_id: "TXN-EDF-1" });
    // Marked paid by hand with the dashboard's reference, Sadad chosen at checkout.
    const byMark = await storeOrder(t.db, { status: "awaiting_confirmation", paymentGateway: "sadad" });
    await settle(t.db, byMark.id, { kind: "marked_paid", by: "owner@medina.example", reference: "DASH-4471" });
    // A payment with another amount, not yet dealt with; and one dealt with.
    const mismatched = await storeOrder(t.db, { status: "awaiting_confirmation" });
    await deliver({ token: mismatched.paymentToken, amount: 1 });
    const dealtWith = await storeOrder(t.db, { status: "awaiting_confirmation" });
    await deliver({ token: dealtWith.paymentToken, amount: 1 });
    await resolveFlag(t.db, dealtWith.id, "amount_mismatch", { by: "owner@medina.example", note: "refunded" });

    const { header, row } = await exported();
    expect(header).toEqual([
      "order",
      "created_at",
      "status",
      "flags",
      "resolved_flags",
      "fulfilled_at",
      "amount",
      "currency",
      "full_name",
      "email",
      "phone",
      "gateway",
      "paid_with",
      "paid_at",
      "transaction_reference",
      "payment_token",
      "lines",
      "fulfilment",
      "delivery_method",
      "delivery_city",
      "delivery_address",
      "delivery_landmark",
      "second_phone",
      "delivery_fee",
      "payment_method",
      "collected",
      "collected_by",
      "collected_at",
      "promo_code",
      "discount",
      "refunded",
      "refund_references",
      "cancel_reason",
    ]);
    expect(row(byWebhook.id)).toEqual({
      order: byWebhook.id,
      created_at: "2026-11-25 21:30:00",
      status: "paid",
      flags: "",
      resolved_flags: "",
      fulfilled_at: "",
      amount: "18.75",
      currency: "LYD",
      full_name: "Aisha Ben Ali",
      email: "aisha@example.ly",
      phone: "",
      gateway: "",
      paid_with: "edfali",
      paid_at: libya(await paidAt(byWebhook.id)),
      transaction_reference: "TXN-EDF-1",
      payment_token: byWebhook.paymentToken,
      lines: "1 × Saffron threads, 2 g",
      fulfilment: "",
      delivery_method: "",
      delivery_city: "",
      delivery_address: "",
      delivery_landmark: "",
      second_phone: "",
      delivery_fee: "",
      payment_method: "online",
      collected: "",
      collected_by: "",
      collected_at: "",
      promo_code: "",
      discount: "",
      refunded: "0.00",
      refund_references: "",
      cancel_reason: "",
    });
    expect(row(byMark.id)).toMatchObject({
      status: "paid",
      flags: "",
      resolved_flags: "paid_manually",
      gateway: "sadad",
      paid_with: "",
      paid_at: libya(await paidAt(byMark.id)),
      transaction_reference: "DASH-4471",
    });
    expect(row(mismatched.id)).toMatchObject({ flags: "amount_mismatch", resolved_flags: "", paid_at: "" });
    expect(row(dealtWith.id)).toMatchObject({ flags: "", resolved_flags: "amount_mismatch" });
    // The "flagged" export holds the order to look at, not the one dealt with.
    const flagged = await exported({ status: "flagged" });
    expect(() => flagged.row(mismatched.id)).not.toThrow();
    expect(() => flagged.row(dealtWith.id)).toThrow();
  });

  it("carries where the goods go, the fee and the step, with formulas neutralised in what the customer typed", async () => {
    const [zone] = (await t.pool.query("select id from delivery_zones where name_en = 'Benghazi'")).rows;
    const delivered = await storeOrder(t.db, {
      status: "paid",
      amountMinor: 1875 + 3500,
      deliveryMethod: "delivery",
      deliveryZoneId: Number(zone.id),
      deliveryCityEn: "Benghazi",
      deliveryCityAr: "بنغازي",
      deliveryAddress: "Al-Fuwayhat, Gamal Abdel Nasser St.",
      deliveryLandmark: "=behind the mosque",
      secondPhone: "+218923456789",
      deliveryFeeMinor: 3500,
    });
    await recordFulfilmentStep(t.db, delivered.id, "packed", { by: "owner@medina.example", notify: false });
    const pickup = await storeOrder(t.db, { status: "paid", deliveryMethod: "pickup" });
    const { row } = await exported();
    expect(row(delivered.id)).toMatchObject({
      amount: "53.75",
      fulfilment: "packed",
      delivery_method: "delivery",
      delivery_city: "Benghazi",
      delivery_address: "Al-Fuwayhat, Gamal Abdel Nasser St.",
      delivery_landmark: "'=behind the mosque",
      second_phone: '="+218923456789"',
      delivery_fee: "35.00",
    });
    expect(row(pickup.id)).toMatchObject({ delivery_method: "pickup", delivery_city: "", delivery_fee: "" });
  });

  it("ends with the way of paying and, for a cash order, the cash collected, who recorded it and when", async () => {
    const collectedAt = new Date("2026-11-24T22:30:00Z");
    const cash = await storeOrder(t.db, {
      paymentMethod: "cash",
      status: "paid",
      amountMinor: 7750,
      confirmBy: null,
      fulfilment: "delivered",
      fulfilledAt: new Date("2026-11-24T21:00:00Z"),
      collectedMinor: 7750,
      collectedBy: "owner@medina.example",
      paidAt: collectedAt,
    });
    const toCollect = await storeOrder(t.db, { paymentMethod: "cash", status: "confirmed", confirmBy: null });
    const online = await storeOrder(t.db, { status: "paid", paidAt: collectedAt });
    const { header, row } = await exported();
    // Appended: the columns before stay where a spreadsheet built on them reads them.
    expect(header!.slice(-10, -5)).toEqual([
      "delivery_fee",
      "payment_method",
      "collected",
      "collected_by",
      "collected_at",
    ]);
    expect(row(cash.id)).toMatchObject({
      status: "paid",
      payment_method: "cash",
      collected: "77.50",
      collected_by: "owner@medina.example",
      collected_at: "2026-11-25 00:30:00",
    });
    expect(row(toCollect.id)).toMatchObject({
      status: "confirmed",
      payment_method: "cash",
      collected: "",
      collected_by: "",
      collected_at: "",
    });
    expect(row(online.id)).toMatchObject({ payment_method: "online", collected: "", collected_at: "" });
    // The list's filters narrow the export as they narrow the list.
    const onlyCollected = await exported({ cash: "collected" });
    expect(() => onlyCollected.row(cash.id)).not.toThrow();
    expect(() => onlyCollected.row(toCollect.id)).toThrow();
    expect(parseOrderListQuery({ pay: "cash", cash: "to_confirm" }).query).toEqual({ pay: "cash", cash: "to_confirm" });
    expect(parseOrderListQuery({ pay: "cheque", cash: "lost" }).ignored).toEqual(["pay", "cash"]);
  });

  it("ends with the promo code and what it took off, the amount being what the customer pays", async () => {
    // 10 % of 42.50 is 4.25; delivery 15.00: 53.25 paid. A free-delivery code on a pickup took nothing off.
    const [zone] = (await t.pool.query("select id from delivery_zones where name_en = 'Tripoli'")).rows;
    const eid = await storeOrder(t.db, {
      status: "paid",
      amountMinor: 5325,
      deliveryMethod: "delivery",
      deliveryZoneId: Number(zone.id),
      deliveryAddress: "Hay Al-Andalus",
      deliveryCityEn: "Tripoli",
      deliveryCityAr: "طرابلس",
      deliveryFeeMinor: 1500,
      promo: { code: "EID10", discountMinor: 425 },
    });
    const pickup = await storeOrder(t.db, {
      status: "placed",
      paymentMethod: "cash",
      deliveryMethod: "pickup",
      promo: { code: "FREESHIP", discountMinor: 0 },
    });
    const plain = await storeOrder(t.db, { status: "paid" });
    const { header, row } = await exported();
    expect(header!.slice(-5, -3)).toEqual(["promo_code", "discount"]);
    expect(row(eid.id)).toMatchObject({
      amount: "53.25",
      delivery_fee: "15.00",
      promo_code: "EID10",
      discount: "4.25",
    });
    expect(row(pickup.id)).toMatchObject({ promo_code: "FREESHIP", discount: "0.00" });
    expect(row(plain.id)).toMatchObject({ promo_code: "", discount: "" });
    // The home's discounts per code link to the list (and its export) of that code's orders, in any case.
    expect(parseOrderListQuery({ promo: " eid10 " }).query).toEqual({ promo: "EID10" });
    expect(parseOrderListQuery({ promo: "EID-10" }).ignored).toEqual(["promo"]);
    const onlyEid = await exported({ promo: "EID10" });
    expect(() => onlyEid.row(eid.id)).not.toThrow();
    expect(() => onlyEid.row(plain.id)).toThrow();
  });

  it("opens in a spreadsheet with the Arabic intact, phones as text, totals as numbers and Libya's times as times", async () => {
    const [zone] = (await t.pool.query("select id from delivery_zones where name_en = 'Tripoli'")).rows;
    const arabic = await storeOrder(t.db, {
      status: "paid",
      email: "sheet@shop.ly",
      fullName: "عائشة بن علي",
      phone: "0925551234",
      amountMinor: 1875 + 3500,
      deliveryMethod: "delivery",
      deliveryZoneId: Number(zone.id),
      deliveryCityEn: "Tripoli",
      deliveryCityAr: "طرابلس",
      deliveryAddress: "حي الأندلس، شارع جرابة",
      secondPhone: "+218913334455",
      deliveryFeeMinor: 3500,
      createdAt: new Date("2026-11-25T19:30:00Z"),
    });
    const english = await storeOrder(t.db, {
      status: "paid",
      email: "sheet@shop.ly",
      fullName: "Aisha Ben Ali",
      phone: "0912345678",
      amountMinor: 103_75,
      createdAt: new Date("2026-01-05T07:05:09Z"),
    });
    // The bytes as downloaded, opened by SheetJS's CSV import, which guesses each cell's type as Excel does: without
    // a byte order mark it reads the file as Windows-1252 (the Arabic garbled), and a phone as a number.
    const bytes = new Uint8Array(await new Response(exportOrdersCsv(t.db, { q: "sheet@shop.ly" })).arrayBuffer());
    const sheet = Object.values(readSpreadsheet(bytes, { type: "array" }).Sheets)[0]!;
    const cell = (r: number, c: number): { t: string; v: unknown } | undefined =>
      sheet[spreadsheetUtils.encode_cell({ r, c })];
    const last = spreadsheetUtils.decode_range(sheet["!ref"]!).e;
    const header = Array.from({ length: last.c + 1 }, (_, c) => String(cell(0, c)?.v));
    const cells = (id: string) => {
      const r = Array.from({ length: last.r }, (_, i) => i + 1).find((i) => cell(i, 0)?.v === id)!;
      return Object.fromEntries(header.map((name, c) => [name, cell(r, c)]));
    };
    /** A spreadsheet's date and time (days since 1899-12-30) as the wall clock it shows. */
    const clock = (serial: unknown) =>
      new Date(Math.round((Number(serial) - 25_569) * 86_400_000)).toISOString().slice(0, 19).replace("T", " ");

    const ar = cells(arabic.id);
    expect(ar.full_name).toMatchObject({ t: "s", v: "عائشة بن علي" });
    expect(ar.delivery_address).toMatchObject({ t: "s", v: "حي الأندلس، شارع جرابة" });
    expect(ar.phone).toMatchObject({ t: "s", v: "0925551234" });
    expect(ar.second_phone).toMatchObject({ t: "s", v: "+218913334455" });
    expect(ar.amount).toMatchObject({ t: "n", v: 53.75 });
    expect(ar.created_at!.t).toBe("n");
    expect(clock(ar.created_at!.v)).toBe("2026-11-25 21:30:00");
    const en = cells(english.id);
    expect(en.full_name).toMatchObject({ t: "s", v: "Aisha Ben Ali" });
    expect(en.phone).toMatchObject({ t: "s", v: "0912345678" });
    expect(en.amount).toMatchObject({ t: "n", v: 103.75 });
    expect(clock(en.created_at!.v)).toBe("2026-01-05 09:05:09");
  });

  it("keeps an address with a formula after a semicolon text when a spreadsheet splits the file on semicolons", async () => {
    const [zone] = (await t.pool.query("select id from delivery_zones where name_en = 'Benghazi'")).rows;
    const { id } = await storeOrder(t.db, {
      status: "paid",
      email: "semicolon@shop.ly",
      fullName: "Aisha,@SUM(A1)",
      amountMinor: 1875 + 3500,
      deliveryMethod: "delivery",
      deliveryZoneId: Number(zone.id),
      deliveryCityEn: "Benghazi",
      deliveryCityAr: "بنغازي",
      deliveryAddress: "x;=1+2",
      deliveryLandmark: "y\t+1|-2\n=3",
      deliveryFeeMinor: 3500,
    });
    const text = await new Response(exportOrdersCsv(t.db, { q: "semicolon@shop.ly" })).text();
    for (const delimiter of [";", ",", "\t", "|"])
      expect(spreadsheetCells(text, delimiter).filter(isFormula)).toEqual([]);
    expect((parse(text) as string[][])[1]).toContain("x;=1+2");
    expect((parse(text) as string[][])[1]![0]).toBe(id);
  });

  it("reads the orders a batch at a time on one connection, and writes the first rows before the last are read", async () => {
    await t.pool.query(`
      insert into orders (id, session_id, fingerprint, status, amount_minor, currency, locale, email, claim_expires_at, created_at, payment_token)
      select 'ord_' || substr(md5('bulk-' || i), 1, 16), 'session-bulk', md5('bulk-' || i), 'cancelled', 1875, 'LYD', 'en',
             'bulk@shop.ly', now(), now() - i * interval '1 second', 'pt-bulk-' || i
      from generate_series(1, 1100) as i`);
    // A pool like the shop's whose queries are counted: how many ran, and the most at once.
    const pool = new Pool({ connectionString: t.url, max: 5 });
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    const seen = { queries: 0, running: 0, most: 0 };
    pool.query = (async (...args: unknown[]) => {
      seen.queries += 1;
      seen.most = Math.max(seen.most, ++seen.running);
      try {
        return await query(...args);
      } finally {
        seen.running -= 1;
      }
    }) as typeof pool.query;
    try {
      const reader = exportOrdersCsv(createDb(pool), { q: "bulk@shop.ly" }).getReader();
      const decoder = new TextDecoder();
      let text = decoder.decode((await reader.read()).value, { stream: true });
      await new Promise((resolve) => setTimeout(resolve, 200)); // whatever it reads ahead, it has read by now
      // Five batches of orders (250 at a time), each with its lines and its payments, then an empty one: 16 queries.
      expect(seen.queries).toBeLessThan(16);
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        text += decoder.decode(chunk.value, { stream: true });
      expect(parse(text)).toHaveLength(1 + 1100);
      expect(seen.queries).toBe(16);
      expect(seen.most).toBe(1);
    } finally {
      await pool.end();
    }
  });

  it("names the file by Libya's day", () => {
    expect(exportFileName(new Date("2026-11-25T22:30:00Z"))).toBe("orders-2026-11-26.csv");
  });
});

describe("the admin order page's words", () => {
  it("names a line as the catalogue does in the reader's language, when it was sold under the catalogue's name", () => {
    const sold = {
      name: "Saffron threads, 2 g",
      productName: { en: "Saffron threads, 2 g", ar: "خيوط الزعفران، 2 غ" },
    };
    expect(lineNameIn(sold, "en", "ar")).toBe("خيوط الزعفران، 2 غ");
    expect(lineNameIn(sold, "en", "en")).toBe("Saffron threads, 2 g");
    // Renamed since, or no longer sold: the name as sold is the record.
    expect(lineNameIn({ ...sold, name: "Saffron, 2 g" }, "en", "ar")).toBe("Saffron, 2 g");
    expect(lineNameIn({ name: "Old thing", productName: null }, "en", "ar")).toBe("Old thing");
  });

  it("shows who resolved each flag: the mark as paid with its reference, or an admin with a note", async () => {
    const { id, paymentToken } = await storeOrder(t.db, { status: "awaiting_confirmation" });
    await deliver({ token: paymentToken, amount: 1 });
    await settle(t.db, id, {
      kind: "marked_paid",
      by: "one@medina.example",
      reference: "DASH-1",
      note: "in the dashboard",
    });
    await resolveFlag(t.db, id, "amount_mismatch", { by: "two@medina.example", note: "refunded the difference" });
    const order = (await findOrderForAdmin(t.db, id))!;
    expect(order.payment).toMatchObject({ by: "mark", reference: "DASH-1", gateway: null });
    expect(Object.fromEntries(order.resolutions)).toEqual({
      paid_manually: expect.objectContaining({
        by: "one@medina.example",
        reference: "DASH-1",
        note: "in the dashboard",
      }),
      amount_mismatch: expect.objectContaining({
        by: "two@medina.example",
        reference: null,
        note: "refunded the difference",
      }),
    });
  });
});
