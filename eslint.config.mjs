import { readdirSync, readFileSync } from "node:fs";
import next from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import reactHooks from "eslint-plugin-react-hooks";

/**
 * `redirect()`, `permanentRedirect()` and `notFound()` work by throwing; inside a `try` block a `catch` swallows
 * them (NEXT_REDIRECT) and the customer is never sent on. Call them after the try/catch.
 */
export const noNavigationInTry = {
  selector:
    "TryStatement > BlockStatement.block CallExpression[callee.name=/^(redirect|permanentRedirect|notFound|unauthorized|forbidden)$/]",
  message: "Do not call redirect()/notFound() inside a try block: the catch swallows it. Call it after the try/catch.",
};

/**
 * The client components: the files under app/ and components/ that start with "use client" (a client component's
 * imports are client code too; this project's each say so themselves).
 */
const clientComponents = ["app", "components"].flatMap((folder) =>
  readdirSync(folder, { recursive: true })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => `${folder}/${file}`)
    .filter((file) => /^\s*["']use client["']/.test(readFileSync(file, "utf8"))),
);

/**
 * react-hooks' rules beyond the two classic ones are the React Compiler's analysis: state, effects, refs, memoisation
 * and purity across a component's renders in the browser. A server component renders once per request and has none
 * of these, and the rest of the code has no components, so they run on the client components only: run on every file
 * they were a third of the lint's CPU (17 of 51 CPU-seconds) and found nothing outside them.
 */
const compilerRules = Object.keys(reactHooks.rules).filter(
  (rule) => !["rules-of-hooks", "exhaustive-deps"].includes(rule),
);

const config = [
  ...next,
  ...nextTypescript,
  {
    rules: {
      "no-restricted-syntax": ["error", noNavigationInTry],
      // `const { content, ...listed } = row` is how a field is left out of an object; `content` is not forgotten.
      "@typescript-eslint/no-unused-vars": ["warn", { ignoreRestSiblings: true }],
    },
  },
  {
    ignores: clientComponents,
    rules: Object.fromEntries(compilerRules.map((rule) => [`react-hooks/${rule}`, "off"])),
  },
  {
    // The shop logs through lib/log.ts only: structured lines, with its redaction. Tests and the contract suite print
    // to the person running them.
    files: ["app/**", "lib/**", "components/**", "proxy.ts", "instrumentation.ts"],
    ignores: ["**/*.test.ts", "lib/payments.contract.ts"],
    rules: { "no-console": "error" },
  },
  {
    // Every page is rendered per request, so next/link's prefetch only fetches routes and titles: two wasted renders a
    // link in view. The app's links go through PageLink, which turns it off (components/page-link.tsx says more).
    files: ["app/**", "components/**"],
    ignores: ["components/page-link.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "next/link", message: "Use PageLink (components/page-link.tsx): a prefetch here is wasted." },
          ],
        },
      ],
    },
  },
  {
    // The emulator is a Hono program, not a Next.js one: its JSX renders plain HTML on the server.
    files: ["emulator/**"],
    rules: { "@next/next/no-head-element": "off", "react/jsx-key": "off" },
  },
  {
    ignores: [".next/**", ".next-*/**", "node_modules/**", "next-env.d.ts", "test-results/**", "playwright-report/**"],
  },
];

export default config;
