import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { EMULATOR_URL } from "../playwright.config";

/** The emulator's control API (emulator/README.md), for arranging faults and checking what the service holds. */
export const emulator = {
  async reset(request: APIRequestContext) {
    expect((await request.post(`${EMULATOR_URL}/__emulator/reset`)).ok()).toBe(true);
  },
  async payments(request: APIRequestContext): Promise<{ token: string; status: string; amount: string; custom?: string; payment_gateway?: string }[]> {
    const response = await request.get(`${EMULATOR_URL}/__emulator/payments`);
    expect(response.ok()).toBe(true);
    const body = await response.json();
    return Array.isArray(body) ? body : body.payments;
  },
  async fault(request: APIRequestContext, fault: { route: "token" | "create"; kind: string; status?: number; delayMs?: number; count?: number }) {
    expect((await request.post(`${EMULATOR_URL}/__emulator/faults`, { data: fault })).ok()).toBe(true);
  },
};

/** Opens a product page and adds `quantity` of it to the cart. */
export async function addToCart(page: Page, slug: string, quantity = 1) {
  await page.goto(`/products/${slug}`);
  await page.getByLabel("Quantity").fill(String(quantity));
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByText("Added to your cart.")).toBeVisible();
}

/** The number in the header's cart badge. */
export async function cartCount(page: Page): Promise<number> {
  return Number(await page.getByTestId("cart-count").textContent());
}

/** Fills the checkout's customer fields; pass `payment_gateway` as the picker's display name. */
export async function fillCheckout(page: Page, details: { full_name?: string; email?: string; phone?: string; gateway?: string }) {
  if (details.full_name !== undefined) await page.getByLabel(/Full name/).fill(details.full_name);
  if (details.email !== undefined) await page.getByLabel(/E-mail/).fill(details.email);
  if (details.phone !== undefined) await page.getByLabel(/Mobile phone/).fill(details.phone);
  if (details.gateway !== undefined) await page.getByRole("radio", { name: details.gateway }).check();
}
