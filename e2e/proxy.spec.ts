import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { startProcess, type Started } from "../scripts/servers";
import { findForm } from "../testing/no-js-shop";
import { BUILD_SITE_URL } from "./stacks";
import {
  addToCart,
  createAdmin,
  database,
  emulator,
  expect,
  fillCheckout,
  paymentPage,
  shop,
  signInAsAdmin,
  stack,
  submitCheckout,
  test,
} from "./support";

/**
 * A Node host as docs/deploy/ describes it: the standalone build (`node .next/standalone/server.js`, static files and
 * public/ copied in by `npm run build`) on loopback, behind nginx terminating https for the public origin with the
 * shipped site configuration (docs/deploy/nginx.conf), which rewrites Host to the upstream's address. The shop must
 * build its URLs and cookies from SITE_URL, accept its own server actions, and count the sign-in limit against the
 * address nginx saw. The public origin is the one the suite's build was made for (e2e/stacks.ts, BUILD_SITE_URL): the
 * server actions' allowed origin is fixed at build time.
 */
const PUBLIC_URL = BUILD_SITE_URL;
const PUBLIC_PORT = Number(new URL(PUBLIC_URL).port);
const ADMIN = { email: "proxy-admin@medina.example", password: "proxy-admin-password-1" };
const STANDALONE = ".next/standalone";

test.describe.configure({ mode: "serial", timeout: 60_000 });
test.use({ baseURL: PUBLIC_URL, ignoreHTTPSErrors: true });

let folder: string;
let processes: Started[] = [];
/** nginx's port for plain http (which it redirects) and the standalone server's, from the worker's spare ports. */
let redirectPort: number;
let upstreamPort: number;

test.beforeAll(async () => {
  [redirectPort, upstreamPort] = stack().sparePorts.slice(-2) as [number, number];
  if (!existsSync(`${STANDALONE}/.next/static`))
    throw new Error(`${STANDALONE} has no static files: build with \`npm run build\`, which copies them in.`);
  folder = mkdtempSync(path.join(tmpdir(), "shop-proxy-"));
  chmodSync(folder, 0o755);
  const env = { ...stack().env, SITE_URL: PUBLIC_URL, TRUSTED_PROXY_HOPS: "1", NODE_ENV: "production" as const };
  const server = startProcess("standalone shop", process.execPath, [`${STANDALONE}/server.js`], {
    env: { ...env, PORT: String(upstreamPort), HOSTNAME: "127.0.0.1" },
    output: { file: path.join(folder, "shop.log") },
  });
  processes.push(server);

  // nginx with the shipped site configuration, its names, port and certificate replaced by this test's.
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost",
      "-keyout",
      path.join(folder, "key.pem"),
      "-out",
      path.join(folder, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  const site = readFileSync("docs/deploy/nginx.conf", "utf8")
    .replace(/^\s*listen \[::\].*$/gm, "")
    .replace("listen 80;", `listen 127.0.0.1:${redirectPort};`)
    .replace("listen 443 ssl http2;", `listen 127.0.0.1:${PUBLIC_PORT} ssl http2;`)
    .replaceAll("/etc/letsencrypt/live/shop.example.ly/fullchain.pem", path.join(folder, "cert.pem"))
    .replaceAll("/etc/letsencrypt/live/shop.example.ly/privkey.pem", path.join(folder, "key.pem"))
    .replaceAll("shop.example.ly", "localhost")
    .replaceAll("127.0.0.1:3000", `127.0.0.1:${upstreamPort}`);
  expect(site).not.toContain("443 ssl http2;\n    listen [");
  writeFileSync(path.join(folder, "site.conf"), site);
  const temp = path.join(folder, "temp");
  mkdirSync(temp, { mode: 0o777 });
  chmodSync(temp, 0o777);
  writeFileSync(
    path.join(folder, "nginx.conf"),
    `daemon off;
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  include ${folder}/site.conf;
}
`,
  );
  const nginx = startProcess("nginx", "/usr/sbin/nginx", ["-p", folder, "-c", path.join(folder, "nginx.conf")], {
    output: "stderr",
  });
  processes.push(nginx);

  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${upstreamPort}/`).catch(() => null))?.status ?? 0, {
      timeout: 60_000,
      message: `the standalone server (log: ${folder}/shop.log)`,
    })
    .toBe(200);
  await createAdmin(ADMIN.email, ADMIN.password);
});

test.afterAll(async () => {
  await Promise.all(processes.map((started) => started.stop()));
  processes = [];
  rmSync(folder, { recursive: true, force: true });
});

test("plain http is sent to the public https origin", async ({ request }) => {
  const response = await request.get(`http://127.0.0.1:${redirectPort}/cart`, {
    maxRedirects: 0,
    headers: { Host: "localhost" },
  });
  expect(response.status()).toBe(301);
  expect(response.headers().location).toBe("https://localhost/cart");
});

test("a purchase through nginx: the server action is accepted, the service is given the public https URLs, the webhook confirms", async ({
  page,
  request,
  context,
}) => {
  await emulator.reset(request);
  // The emulator sends its webhooks to the suite's other shop; this payment's is dropped and delivered here instead.
  await emulator.fault(request, { route: "webhook", kind: "drop" });
  await addToCart(page, "saffron", 2, "en");
  await page.goto("/checkout");
  await fillCheckout(page, {
    full_name: "Huda Mansour",
    email: "huda@example.ly",
    phone: "0912345678",
    gateway: "Sadad",
  });
  await submitCheckout(page);
  await expect(page).toHaveURL(new RegExp(`^${stack().emulatorUrl}/pay/sandbox/v1/user/payment/preview/`));
  // Every customer field and a gateway were given: the payment page goes on to the gateway by itself.
  await page.getByRole("button", { name: paymentPage("en").pay, exact: true }).click({ timeout: 15_000 });

  // Back on the public origin, over https, with the session cookie marked Secure.
  await expect(page).toHaveURL(new RegExp(`^${PUBLIC_URL}/orders/ord_[0-9a-z]+\\?outcome=reported$`));
  await expect(
    page.getByRole("heading", { name: shop("order.status.awaiting_confirmation.title", "en") }),
  ).toBeVisible();
  const cookies = await context.cookies(PUBLIC_URL);
  expect(cookies.find((cookie) => cookie.name === "shop_session")).toMatchObject({
    secure: true,
    httpOnly: true,
    sameSite: "Lax",
  });

  const [payment] = await emulator.payments(request);
  expect(payment).toMatchObject({
    return_url: `${PUBLIC_URL}/checkout/return`,
    cancel_url: `${PUBLIC_URL}/checkout/cancel`,
  });
  const [delivery] = await emulator.webhooks(request, payment!.token);
  expect(delivery!.state).toBe("dropped");

  // The service's signed delivery, through nginx.
  const answer = await request.post(`${PUBLIC_URL}/api/payments/webhook`, {
    data: delivery!.body,
    headers: { "Content-Type": "application/json", "X-MyPay-Signature": delivery!.signature },
  });
  expect(answer.status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("heading", { name: shop("order.status.paid.title", "en") })).toBeVisible();
});

test("the sign-in limit counts the address nginx saw, not one the client wrote", async ({ page }) => {
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": "6.6.6.6" });
  await page.goto("/admin/sign-in");
  await page.getByLabel(shop("admin.signIn.email", "en")).fill(ADMIN.email);
  await page.getByLabel(shop("admin.signIn.password", "en")).fill("not-the-password");
  await page.getByRole("button", { name: shop("admin.signIn.submit", "en") }).click();
  await expect(page.getByText(shop("admin.signIn.invalid", "en"))).toBeVisible();
  const attempts = await database(
    async (pool) => (await pool.query("select ip from sign_in_attempts where email = $1", [ADMIN.email])).rows,
  );
  expect(attempts).toEqual([{ ip: "127.0.0.1" }]);

  await signInAsAdmin(page, ADMIN.email, ADMIN.password, "en");
  await page.goto("/admin/orders");
  await expect(page.getByRole("link", { name: /ord_/ }).first()).toBeVisible();
  // The export's redirect for a signed-out visitor stays on the public origin.
  const signedOut = await page.request.get(`${PUBLIC_URL}/admin/orders/export`, {
    maxRedirects: 0,
    headers: { Cookie: "" },
  });
  expect(signedOut.headers().location).toBe("/admin/sign-in");
});

test("a 4 MB picture is uploaded through nginx, a larger body gets the shop's page, and https answers send HSTS", async ({
  page,
}) => {
  const HSTS = "max-age=31536000";
  await signInAsAdmin(page, ADMIN.email, ADMIN.password, "en");
  const { id } = await database(
    async (pool) => (await pool.query<{ id: number }>("select id from products order by id limit 1")).rows[0]!,
  );
  const productUrl = `${PUBLIC_URL}/admin/products/${id}`;
  const productPage = await page.request.get(productUrl);
  expect(productPage.headers()["strict-transport-security"]).toBe(HSTS);
  // The picture form as a browser without JavaScript posts it: its hidden fields (the action, the product's id).
  const form = findForm(await productPage.text(), "picture");
  expect(form).not.toBeNull();
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#c8902f" } })
    .jpeg()
    .toBuffer();
  /** Posts a real JPEG with data after its end (as some cameras write: decoders read it) of `bytes` in all. */
  const upload = (bytes: number) =>
    page.request.post(productUrl, {
      multipart: {
        ...Object.fromEntries(form!.hidden),
        picture: {
          name: "photo.jpg",
          mimeType: "image/jpeg",
          buffer: Buffer.concat([jpeg, Buffer.alloc(bytes - jpeg.length)]),
        },
      },
      headers: { Origin: PUBLIC_URL, Referer: productUrl, "Accept-Language": "en" },
      maxRedirects: 0,
    });

  // A phone's photo, under the shop's 5 MB: stored.
  const stored = await upload(4 * 1024 * 1024);
  expect(stored.status()).toBe(303);
  expect(stored.headers().location).toContain(`/admin/products/${id}?result=picture_added`);
  const pictures = await database(
    async (pool) => (await pool.query("select 1 from product_pictures where product_id = $1", [id])).rowCount,
  );
  expect(pictures).toBeGreaterThan(0);

  // Over nginx's limit: nginx refuses it unread, and shows the shop's page about pictures, not its own.
  const refused = await upload(7 * 1024 * 1024);
  expect(refused.status()).toBe(413);
  expect(refused.headers()["strict-transport-security"]).toBe(HSTS);
  const html = await refused.text();
  expect(html).toContain(shop("formTooLarge.textPicture", "en").replaceAll("'", "&#39;"));
  expect(html).toContain(`<a href="/admin/products/${id}">`);
  expect(html).not.toContain("nginx");

  // The static files' location sets headers of its own, and sends HSTS as well.
  const asset = /\/_next\/static\/[^"]+\.css/.exec(await (await page.request.get(`${PUBLIC_URL}/`)).text())![0];
  expect((await page.request.get(`${PUBLIC_URL}${asset}`)).headers()["strict-transport-security"]).toBe(HSTS);
});
