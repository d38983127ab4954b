import { describe, expect, it } from "vitest";
import ar from "../i18n/messages/ar.json";
import en from "../i18n/messages/en.json";
import { renderSignInLinkEmail } from "./sign-in-link";
import { BRAND } from "../brand";

/** The sign-in link e-mail as an admin reads it, in both languages. */

const SITE = "https://shop.example.ly";
const TOKEN = "Qk9vM2x5LXJhbmRvbS10b2tlbi1mb3ItdGhlLXRlc3Q";
const link = {
  to: "owner@shop.ly",
  token: TOKEN,
  ip: "203.0.113.7",
  requestedAt: new Date("2026-11-20T10:00:00Z"),
  expiresAt: new Date("2026-11-20T10:15:00Z"),
};

describe("the sign-in link e-mail", () => {
  it.each([
    ["en", "ltr", en, "15 minutes", "12:15"],
    ["ar", "rtl", ar, "15 دقيقة", "12:15"],
  ] as const)(
    "in %s: the link, the account, when and from where it was asked, how long it works, and what to do if you did not ask",
    async (lang, dir, t, minutes, until) => {
      const { subject, html, text } = await renderSignInLinkEmail(link, lang, SITE);
      expect(subject).toBe(t.email.signInLink.subject.replace("{shop}", BRAND.name[lang]));
      expect(html).toMatch(new RegExp(`<html[^>]* dir="${dir}" lang="${lang}"`));
      for (const part of [html, text]) {
        expect(part).toContain(t.email.signInLink.heading);
        expect(part).toContain(`${SITE}/admin/sign-in/link?token=${TOKEN}`);
        expect(part).toContain("owner@shop.ly");
        expect(part).toContain("203.0.113.7");
        expect(part).toContain(minutes);
        expect(part).toContain(until); // in Tripoli's time (UTC+2)
        expect(part).toContain(t.email.signInLink.ignore.slice(0, 20));
      }
    },
  );

  it("is self-contained, and its only link is the sign-in link", async () => {
    const { html } = await renderSignInLinkEmail(link, "en", SITE);
    expect(html).not.toMatch(/<img|<link|<script|@import|@font-face|url\(/i);
    const links = [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((match) => match[1]);
    expect(links).toEqual([`${SITE}/admin/sign-in/link?token=${TOKEN}`]);
  });

  it('says "unknown" in the reader\'s language when the shop could not tell the address', async () => {
    const { text } = await renderSignInLinkEmail({ ...link, ip: "unknown" }, "ar", SITE);
    expect(text).toContain(ar.email.signInLink.unknownAddress);
  });
});
