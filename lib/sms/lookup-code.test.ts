import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { smsDays } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import { lookupCodeText, sendLookupCode } from "./lookup-code";
import { segmentSms } from "./segments";
import { SmsSendError, type SmsMessage } from "./sender";

/** Find-my-order's code as a text message: short, in the order's language, and handed to the order's phone only. */

vi.stubEnv("SMPP_URL", "smpp://127.0.0.1:2775");
vi.stubEnv("SMPP_SYSTEM_ID", "medina-test");
vi.stubEnv("SMS_SENDER_NAME", "Medina");
vi.stubEnv("SMS_DAILY_LIMIT", "2");

const t = setUpTestDatabase();

const code = { to: "+218912345678", code: "042917", locale: "ar", expiresAt: new Date(Date.now() + 10 * 60_000) };

describe("lookupCodeText", () => {
  it("says the shop, the code and its ten minutes in one part, in Arabic or English", () => {
    const arabic = lookupCodeText(code, 10);
    expect(arabic).toBe("سوق المدينة: رمزك 042917، صالح لمدة 10 دقائق. لا تعطه لأحد.");
    expect(segmentSms(arabic)).toMatchObject({ encoding: "UCS-2", parts: 1 });
    const english = lookupCodeText({ ...code, locale: "en" }, 10);
    expect(english).toBe("Medina Market: your code is 042917. It works for 10 minutes. Do not share it.");
    expect(segmentSms(english)).toMatchObject({ encoding: "GSM-7", parts: 1 });
  });
});

describe("sendLookupCode", () => {
  it("hands the code to the order's phone and closes the sender", async () => {
    const sent: SmsMessage[] = [];
    const close = vi.fn(async () => {});
    const open = async () => ({ send: async (message: SmsMessage) => (sent.push(message), ["id-1"]), close });
    expect(await sendLookupCode(t.db, code, { open })).toBe(true);
    expect(sent).toEqual([{ to: "+218912345678", text: lookupCodeText(code, 10) }]);
    expect(close).toHaveBeenCalledOnce();
  });

  it("reports a refusal or an unreachable provider as not sent, without throwing", async () => {
    const refuse = async () => ({
      send: async () => Promise.reject(new SmsSendError("submit_sm: ESME_RINVDSTADR", true, false)),
      close: async () => {},
    });
    expect(await sendLookupCode(t.db, code, { open: refuse })).toBe(false);
    const down = () => Promise.reject(new SmsSendError("SMPP: connection refused", false, true));
    expect(await sendLookupCode(t.db, code, { open: down })).toBe(false);
  });

  it("counts against the daily cap: past it, nothing is handed over and the day is marked for the merchant", async () => {
    const now = new Date("2026-03-10T10:00:00Z");
    const sent: SmsMessage[] = [];
    const open = async () => ({
      send: async (message: SmsMessage) => (sent.push(message), ["id"]),
      close: async () => {},
    });
    const ask = () =>
      sendLookupCode(t.db, { ...code, expiresAt: new Date(now.getTime() + 10 * 60_000) }, { open, now });
    expect([await ask(), await ask(), await ask()]).toEqual([true, true, false]);
    expect(sent).toHaveLength(2);
    const [day] = await t.db.select().from(smsDays).where(eq(smsDays.day, "2026-03-10"));
    expect(day).toMatchObject({ day: "2026-03-10", parts: 2 });
    expect(day!.limitReachedAt).toEqual(now);
  });

  it("gives back the part it reserved when the provider does not take the code", async () => {
    const now = new Date("2026-03-11T10:00:00Z");
    const down = () => Promise.reject(new SmsSendError("SMPP: connection refused", false, true));
    expect(await sendLookupCode(t.db, code, { open: down, now })).toBe(false);
    const [day] = await t.db.select().from(smsDays).where(eq(smsDays.day, "2026-03-11"));
    expect(day).toMatchObject({ day: "2026-03-11", parts: 0 });
  });
});
