import createNextIntlPlugin from "next-intl/plugin";

// Languages without URL prefixes: see lib/i18n/request.ts.
const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

// Next.js refuses a server action whose Origin differs from the host the server sees (X-Forwarded-Host, else Host),
// which is what happens behind a reverse proxy that rewrites Host (nginx's default). The shop's public origin is
// SITE_URL, so that host is allowed by name: merchants set one variable, not two. This file is read by `next build`,
// and a standalone build keeps what it read, so SITE_URL must be set when building too. On Vercel without SITE_URL
// nothing is added: every deployment, production or preview, is reached at the host its requests carry, which Next.js
// accepts as it is (allowing production's host in a preview would only let another origin post to it).
const siteUrl = process.env.SITE_URL;
const publicHost = siteUrl && URL.canParse(siteUrl) ? new URL(siteUrl).host : undefined;

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // `npm test` typechecks the whole project beside the build rather than after it (testing/test.mjs), with TypeScript
  // 7's native tsc: a third of the CPU of the TypeScript 6 compiler the build's own check uses (Next.js needs its
  // JavaScript API, which TypeScript 7 does not have). Every other build typechecks as usual.
  typescript: { ignoreBuildErrors: process.env.TYPECHECK_BESIDE_BUILD === "1" },
  poweredByHeader: false,
  // A self-contained server for Node hosts (`npm run build` then `npm start`: node .next/standalone/server.js), with
  // only the files it needs; Vercel builds its own way and ignores it.
  output: "standalone",
  // Benchmarks build into their own folder so they never disturb a dev server or the test build.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Do not let `next dev` write an agent-instructions file into the merchant's repo.
  agentRules: false,
  experimental: {
    serverActions: {
      // The largest form the shop reads: the bulk picture upload's, 20 MB of pictures + 64 KB (lib/form-limit.ts,
      // MAX_BULK_PICTURES_FORM_BYTES, whose value this is). The proxy refuses every form over its own page's limit
      // first, with a page that says so; this is only the ceiling. Next.js's default is 1 MB.
      bodySizeLimit: 20 * 1024 * 1024 + 64 * 1024,
      ...(publicHost ? { allowedOrigins: [publicHost] } : {}),
    },
  },
};

export default withNextIntl(nextConfig);
