import createNextIntlPlugin from "next-intl/plugin";

// Languages without URL prefixes: see lib/i18n/request.ts.
const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

// Behind a proxy or on a host whose public name differs from the Host header, list the public host names here,
// e.g. SERVER_ACTIONS_ALLOWED_ORIGINS=shop.example.ly (see README, "Deploying").
const allowedOrigins = process.env.SERVER_ACTIONS_ALLOWED_ORIGINS?.split(",")
  .map((origin) => origin.trim())
  .filter(Boolean);

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Benchmarks build into their own folder so they never disturb a dev server or the test build.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Do not let `next dev` write an AGENTS.md into the merchant's repo.
  agentRules: false,
  ...(allowedOrigins?.length ? { experimental: { serverActions: { allowedOrigins } } } : {}),
};

export default withNextIntl(nextConfig);
