"use server";

import { redirect } from "next/navigation";

// The job of a checkout and nothing else: an access token, a payment, a redirect to its page. No session, no
// validation, no database, no retries (docs/payment-service.md, "Access token", "Creating a payment").
const { PAYMENT_API_BASE_URL, PAYMENT_CLIENT_ID, PAYMENT_CLIENT_SECRET, SITE_URL } = process.env;

async function post(path, body, accessToken) {
  const headers = { Accept: "application/json", "Content-Type": "application/json" };
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
  const response = await fetch(`${PAYMENT_API_BASE_URL}${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  const envelope = await response.json();
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return envelope.data;
}

export async function checkout(form) {
  const { access_token } = await post("/authentication/token", {
    client_id: PAYMENT_CLIENT_ID,
    secret_id: PAYMENT_CLIENT_SECRET,
  });
  const { payment_url } = await post(
    "/payment/create",
    {
      amount: "37.50",
      currency: "LYD",
      return_url: `${SITE_URL}/checkout/return`,
      cancel_url: `${SITE_URL}/checkout/cancel`,
      custom: `ord_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`,
      full_name: form.get("full_name") || undefined,
      email: form.get("email") || undefined,
      phone: form.get("phone") || undefined,
      payment_gateway: form.get("payment_gateway") || undefined,
    },
    access_token,
  );
  redirect(payment_url);
}
