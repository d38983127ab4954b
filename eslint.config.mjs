import next from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

/**
 * `redirect()`, `permanentRedirect()` and `notFound()` work by throwing; inside a `try` block a `catch` swallows
 * them (NEXT_REDIRECT) and the customer is never sent on. Call them after the try/catch.
 */
export const noNavigationInTry = {
  selector:
    "TryStatement > BlockStatement.block CallExpression[callee.name=/^(redirect|permanentRedirect|notFound|unauthorized|forbidden)$/]",
  message: "Do not call redirect()/notFound() inside a try block: the catch swallows it. Call it after the try/catch.",
};

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
