import { addToCart, getPage, loadCheckoutForm, submitCheckout } from "../testing/no-js-shop";
import { startShop, type RunningApp } from "../scripts/servers";
import { emulator, expect, stack, test } from "./support";

/**
 * A serverless host runs the shop on many instances with no shared memory. Two `next start` processes on their own
 * ports share the suite's database and emulator: one checkout posted to both at once must make exactly one payment,
 * and the orders must outlive the processes. Started by scripts/servers.ts, as the benchmarks start the shop.
 */
const ports = () => stack().sparePorts.slice(0, 2);
const instanceUrl = (port: number) => `http://localhost:${port}`;

const startInstance = (port: number): Promise<RunningApp> =>
  startShop({ port, env: { ...stack().env, SITE_URL: instanceUrl(port) } });
const stopInstances = (instances: RunningApp[]) => Promise.all(instances.map((instance) => instance.stop()));

/** Both instances, or neither: one that started is stopped again when the other does not. */
async function startInstances(): Promise<RunningApp[]> {
  const results = await Promise.allSettled(ports().map(startInstance));
  const started = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = results.find((result) => result.status === "rejected");
  if (failed) {
    await stopInstances(started);
    throw failed.reason;
  }
  return started;
}

test.describe.configure({ timeout: 180_000 });

test("ten identical checkout posts alternated between two instances make one payment; the order outlives both", async ({
  request,
}) => {
  await emulator.reset(request);
  let instances: RunningApp[] = [];
  try {
    instances = await startInstances();
    const [a, b] = ports().map(instanceUrl) as [string, string];

    const cookie = await addToCart(a, { slug: "saffron", quantity: 2 });
    const { hidden } = await loadCheckoutForm(a, cookie);
    const details = { full_name: "Salem Fathi", email: "salem@example.ly", phone: "", payment_gateway: "" };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => submitCheckout(i % 2 ? b : a, cookie, hidden, details)),
    );

    for (const answer of answers) expect(answer.status).toBe(303);
    const locations = new Set(answers.map((answer) => answer.location));
    expect(locations.size).toBe(1);
    const [location] = [...locations];
    expect(location).toMatch(new RegExp(`^${stack().emulatorUrl}/pay/sandbox/v1/user/payment/preview/`));
    const payments = await emulator.payments(request);
    expect(payments).toHaveLength(1);
    const orderId = payments[0]!.custom!;
    expect(orderId).toMatch(/^ord_/);

    // Restart both instances: the order is in the database, not in a process.
    await stopInstances(instances);
    instances = await startInstances();
    const sessionCookie = answers.find((answer) => answer.cookie)?.cookie ?? cookie;
    for (const base of [a, b]) {
      const html = await getPage(`${base}/orders/${orderId}`, sessionCookie);
      expect(html).toContain(orderId);
      expect(html).toContain("Waiting for your payment");
    }
  } finally {
    await stopInstances(instances);
  }
});
