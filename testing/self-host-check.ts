// The end of testing/self-host.sh: what docs/deploying.md's Debian server promises once its steps are done, checked
// from outside through nginx, as a browser without JavaScript would: the storefront answers over https with HSTS, and
// the first admin signs in to the back office.
//
//   node --import tsx testing/self-host-check.ts <public origin> <admin e-mail> <admin password>
import { findForm, getPage } from "./no-js-shop";

const [origin, email, password] = process.argv.slice(2);
if (!origin || !email || !password) throw new Error("usage: self-host-check.ts <public origin> <email> <password>");

const home = await fetch(origin);
await home.arrayBuffer();
if (home.status !== 200) throw new Error(`the storefront answered ${home.status}`);
if (!home.headers.get("strict-transport-security")) throw new Error("the storefront sent no Strict-Transport-Security");
console.log(`self-host check: ${origin}/ answered 200 over https, with HSTS`);

const signInUrl = `${origin}/admin/sign-in`;
const form = findForm(await getPage(signInUrl), "password");
if (!form) throw new Error(`${signInUrl} has no sign-in form`);
const body = new FormData();
for (const [name, value] of [...form.hidden, ["email", email], ["password", password]]) body.append(name!, value!);
const signedIn = await fetch(signInUrl, { method: "POST", body, headers: { Origin: origin }, redirect: "manual" });
await signedIn.arrayBuffer();
const cookie = signedIn.headers
  .getSetCookie()
  .map((header) => header.split(";")[0])
  .join("; ");
if (signedIn.status !== 303 || signedIn.headers.get("location") !== "/admin" || !cookie)
  throw new Error(`signing in answered ${signedIn.status} to ${signedIn.headers.get("location")}, expected /admin`);
const backOffice = await fetch(`${origin}/admin`, { headers: { Cookie: cookie }, redirect: "manual" });
const html = await backOffice.text();
if (backOffice.status !== 200 || !html.includes(email))
  throw new Error(`the back office answered ${backOffice.status} to the signed-in admin, without their e-mail`);
console.log(`self-host check: ${email} signed in, and the back office answered 200`);
