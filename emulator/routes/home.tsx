/** @jsxImportSource hono/jsx */
/** @jsxRuntime automatic */
/** `GET /`: what this server is, for a human who opens the port in a browser. */
import type { Context } from "hono";
import type { FC } from "hono/jsx";
import { API_BASE, GATEWAYS, MODES, PAGE_BASE } from "../config";
import type { EmulatorState } from "../state";
import { Layout, renderPage } from "../views";

const CONTROL_ROUTES = [
  "GET /__emulator/health",
  "GET | POST | DELETE /__emulator/faults",
  "GET | POST /__emulator/clock",
  "GET /__emulator/payments?custom=…",
  "GET /__emulator/payments/<token>",
  "GET /__emulator/webhooks?token=…",
  "POST /__emulator/webhooks/<id>/replay",
  "GET | POST /__emulator/config",
  "POST /__emulator/reset",
];

/** The index page: base URLs, credentials, webhooks, gateway aliases, control API and where the docs are. */
const HomePage: FC<{ state: EmulatorState }> = ({ state }) => (
  <Layout lang="en" title="Payment service emulator" badge="Local emulator — no real money moves">
    <h1>Payment service emulator</h1>
    <p>
      A local stand-in for the hosted-checkout payment service. Documentation: <code>emulator/README.md</code>.
    </p>

    <h2>API base URLs</h2>
    <dl>
      {MODES.map((mode) => (
        <>
          <dt>{mode}</dt>
          <dd>
            <code>{`${state.publicUrl}${API_BASE[mode]}`}</code>
          </dd>
        </>
      ))}
    </dl>
    <p>
      Payment pages: <code>{`${state.publicUrl}${PAGE_BASE.sandbox}/<token>`}</code> (sandbox) and{" "}
      <code>{`${state.publicUrl}${PAGE_BASE.production}/<token>`}</code> (production).
    </p>

    <h2>Credentials</h2>
    <table>
      <thead>
        <tr>
          <th scope="col">Merchant</th>
          <th scope="col">Mode</th>
          <th scope="col">client_id</th>
          <th scope="col">secret_id</th>
        </tr>
      </thead>
      <tbody>
        {state.merchants.flatMap((merchant) =>
          MODES.map((mode) => (
            <tr>
              <td>
                {merchant.name}
                {merchant.prepaidEnabled ? " (prepaid card enabled)" : ""}
              </td>
              <td>{mode}</td>
              <td>
                <code>{merchant.keys[mode].clientId}</code>
              </td>
              <td>
                <code>{merchant.keys[mode].clientSecret}</code>
              </td>
            </tr>
          )),
        )}
      </tbody>
    </table>

    <h2>Webhooks</h2>
    <p>
      <code>payment.success</code>, signed with <code>X-MyPay-Signature</code>, when the customer presses Pay:
    </p>
    <ul>
      {state.merchants.map((merchant) => (
        <li>
          {merchant.name}:{" "}
          {merchant.webhook ? (
            <code>{merchant.webhook.url}</code>
          ) : (
            <>
              not sent (set <code>EMULATOR_WEBHOOK_URL</code> and <code>EMULATOR_WEBHOOK_SECRET</code>)
            </>
          )}
        </li>
      ))}
    </ul>

    <h2>Gateway aliases (placeholders)</h2>
    <ul>
      {GATEWAYS.map((gateway) => (
        <li>
          <code>{gateway.alias}</code> — {gateway.name.en}
        </li>
      ))}
    </ul>

    <h2>Control API</h2>
    <ul>
      {CONTROL_ROUTES.map((route) => (
        <li>
          <code>{route}</code>
        </li>
      ))}
    </ul>
  </Layout>
);

export const renderHome = (c: Context, state: EmulatorState) => renderPage(c, <HomePage state={state} />);
