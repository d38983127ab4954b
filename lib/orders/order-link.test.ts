import { describe, expect, it } from "vitest";
import { orderLinkKey, orderLinkUrl, verifyOrderLinkKey } from "./order-link";

const SECRET = "an-order-link-secret-of-32-characters-or-more";
const ID = "ord_0123456789abcdef";
const OTHER_ID = "ord_0123456789abcdeg";
const key = orderLinkKey(ID, SECRET);
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("the signed order link", () => {
  it("is the order id and a 43-character base64url signature, nothing else", () => {
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(orderLinkUrl("https://shop.example.ly", ID, SECRET)).toBe(`https://shop.example.ly/orders/${ID}?key=${key}`);
    expect(verifyOrderLinkKey(ID, key, SECRET)).toBe(true);
  });

  it("refuses every changed character, at every position, even one that decodes to the same bytes", () => {
    // 43 characters carry 258 bits for 256: the last one has two spare bits, so comparing decoded bytes would take
    // three other characters there. The link is compared as written.
    let tried = 0;
    for (let position = 0; position < key.length; position++) {
      for (const character of BASE64URL) {
        if (character === key[position]) continue;
        const changed = key.slice(0, position) + character + key.slice(position + 1);
        expect(verifyOrderLinkKey(ID, changed, SECRET), changed).toBe(false);
        tried++;
      }
    }
    expect(tried).toBe(43 * 63);
  });

  it("refuses a truncated, extended or padded signature", () => {
    for (let length = 0; length < key.length; length++)
      expect(verifyOrderLinkKey(ID, key.slice(0, length), SECRET)).toBe(false);
    expect(verifyOrderLinkKey(ID, `${key}A`, SECRET)).toBe(false);
    expect(verifyOrderLinkKey(ID, `${key}=`, SECRET)).toBe(false);
    expect(verifyOrderLinkKey(ID, ` ${key}`, SECRET)).toBe(false);
  });

  it("refuses another order's signature, and another key's", () => {
    expect(verifyOrderLinkKey(OTHER_ID, key, SECRET)).toBe(false);
    expect(verifyOrderLinkKey(ID, orderLinkKey(OTHER_ID, SECRET), SECRET)).toBe(false);
    expect(verifyOrderLinkKey(ID, key, `${SECRET}-rotated`)).toBe(false);
    expect(verifyOrderLinkKey(ID, orderLinkKey(ID, `${SECRET}-rotated`), SECRET)).toBe(false);
  });

  it("refuses what is not a signature, or an id that is not an order id, without throwing", () => {
    for (const value of [undefined, null, 42, ["a"], "", key.replace(/./, "+"), key.replace(/./, "/")])
      expect(verifyOrderLinkKey(ID, value, SECRET)).toBe(false);
    const forId = (id: string) => verifyOrderLinkKey(id, orderLinkKey(id, SECRET), SECRET);
    expect(forId("ord_../../admin")).toBe(false);
    expect(forId(ID.toUpperCase())).toBe(false);
  });
});
