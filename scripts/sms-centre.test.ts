import { describe, expect, it, vi } from "vitest";
import type { SmsSettings } from "../lib/env";
import { queueOrderSms } from "../lib/orders/sms-outbox";
import { sendPendingSms } from "../lib/sms/delivery";
import type { SmsReport } from "../lib/sms/sender";
import { SmsSendError } from "../lib/sms/sender";
import { smppSender } from "../lib/sms/smpp";
import { setUpTestDatabase } from "../testing/db";
import { storeOrder } from "../testing/orders";
import { setUpTempFolders } from "../testing/temp-folders";
import { openSmsCentre, type CaughtSms, type SmsCentre } from "./sms-centre";

/**
 * The shop's SMPP sender (lib/sms/smpp.ts) against the local SMS centre: what arrives, joined, and what comes back;
 * and the SMS outbox through both, with the centre down for a while.
 */

// Text messages on, as the shop's environment turns them on: sendPendingSms reads these through lib/env.ts.
vi.stubEnv("SMPP_URL", "smpp://127.0.0.1:2775");
vi.stubEnv("SMPP_SYSTEM_ID", "medina-test");
vi.stubEnv("SMS_SENDER_NAME", "Medina");

const t = setUpTestDatabase();

const tempFolder = setUpTempFolders();
const newFolder = () => tempFolder("sms-centre-");
const settingsFor = (centre: Pick<SmsCentre, "smppUrl">): SmsSettings => ({
  smppUrl: centre.smppUrl,
  systemId: "medina-test",
  password: "secret",
  senderName: "Medina",
  siteUrl: "https://shop.example.ly",
  orderLinkSecret: "an-order-link-secret-of-32-characters-at-least",
  dailyLimit: 500,
});
const inboxOf = async (centre: SmsCentre) => (await (await fetch(`${centre.inboxUrl}/api/sms`)).json()) as CaughtSms[];
const until = async (check: () => boolean, ms = 5_000) => {
  for (const started = Date.now(); !check(); await new Promise((resolve) => setTimeout(resolve, 20)))
    if (Date.now() - started > ms) throw new Error("timed out");
};

describe("the SMPP sender and the local SMS centre", () => {
  it("sends Latin and long Arabic messages that arrive whole, each part with a delivery receipt", async () => {
    const folder = newFolder();
    const centre = await openSmsCentre({ smppPort: 0, webPort: 0, folder });
    const reports: SmsReport[] = [];
    const sender = await smppSender(settingsFor(centre))(async (report) => void reports.push(report));
    try {
      const latin = "Medina Market: order ord_0123456789abcdef is packed. €5 {ok}";
      const arabic = "سوق المدينة: الطلب ord_0123456789abcdef في الطريق إليك. أبقِ هاتفك قريباً. ".repeat(2);
      const latinIds = await sender.send({ to: "+218912345678", text: latin });
      const arabicIds = await sender.send({ to: "+218941234567", text: arabic });
      expect(latinIds).toHaveLength(1);
      expect(arabicIds).toHaveLength(3); // 146 characters of UCS-2: 67 + 67 + 12
      expect(await inboxOf(centre)).toMatchObject([
        { systemId: "medina-test", from: "Medina", to: "218912345678", text: latin, parts: 1, encoding: "GSM-7" },
        { to: "218941234567", text: arabic, parts: 3, encoding: "UCS-2" },
      ]);
      await until(() => reports.length === 4);
      expect(reports.map((report) => report.providerId).sort()).toEqual([...latinIds, ...arabicIds].sort());
      expect(reports.every((report) => report.delivered && report.state === "DELIVRD")).toBe(true);

      // The inbox shows each text in its own direction, and keeps them across a restart.
      const page = await (await fetch(centre.inboxUrl)).text();
      expect(page).toContain('<td class="text" dir="auto">سوق المدينة');
      expect(page).toContain("SMS centre: 2 messages");
    } finally {
      await sender.close();
      await centre.close();
    }
    const again = await openSmsCentre({ smppPort: 0, webPort: 0, folder });
    try {
      expect(await inboxOf(again)).toHaveLength(2);
    } finally {
      await again.close();
    }
  });

  it("says the provider is unreachable when no centre listens, and when the centre went away", async () => {
    const centre = await openSmsCentre({ smppPort: 0, webPort: 0, folder: newFolder() });
    const settings = settingsFor(centre);
    const sender = await smppSender(settings)(async () => {});
    await centre.close();
    await until(() => false, 100).catch(() => {}); // the close reaches the client
    await expect(sender.send({ to: "+218912345678", text: "hello" })).rejects.toMatchObject({
      name: "SmsSendError",
      unreachable: true,
    });
    await sender.close();
    const refused = await smppSender(settings)(async () => {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SmsSendError);
    expect(refused).toMatchObject({ unreachable: true, permanent: false });
  });
});

describe("the SMS outbox through the SMPP sender, with the local SMS centre down for a minute", () => {
  it("leaves every message waiting, unspent, while the centre is down; the first run after it is back sends each once", async () => {
    const folder = newFolder();
    const first = await openSmsCentre({ smppPort: 0, webPort: 0, folder });
    const smppPort = Number(new URL(first.smppUrl).port);
    await first.close();
    const settings = settingsFor({ smppUrl: `smpp://127.0.0.1:${smppPort}` });
    const orders = await Promise.all(
      [0, 1, 2].map(() => storeOrder(t.db, { status: "paid", phone: "091 234 5678", smsUpdates: true, locale: "en" })),
    );
    for (const order of orders) await t.db.transaction((tx) => queueOrderSms(tx, order.id, "paid", { settings }));
    const run = (now: Date) =>
      sendPendingSms({ db: t.db, open: smppSender(settings), reportWaitMs: 0, now: () => now });

    const down = await run(new Date());
    expect(down).toMatchObject({ accepted: 0, stopped: "provider_unreachable" });

    const centre = await openSmsCentre({ smppPort, webPort: 0, folder });
    try {
      const aMinuteLater = new Date(Date.now() + 60_000);
      expect(await run(aMinuteLater)).toMatchObject({ accepted: 3 });
      expect(await run(aMinuteLater)).toMatchObject({ accepted: 0 });
      const inbox = await inboxOf(centre);
      expect(inbox).toHaveLength(3);
      expect(inbox.map((message) => message.text.match(/ord_[0-9a-z]+/)![0]).sort()).toEqual(
        orders.map((order) => order.id).sort(),
      );
    } finally {
      await centre.close();
    }
  });
});
