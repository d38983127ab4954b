// The baseline app of `npm run bench` (bench/build.ts copies this folder into .next-bench-baseline/,
// next to a hard-linked copy of the project's node_modules, and builds it there with the project's Next.js).
//
// Turbopack's root is this folder: with the project's root as workspace root, Next.js 16.4 compiles the shop's own
// proxy.ts and instrumentation.ts into any app below it, and the baseline would carry the shop's middleware.
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  turbopack: { root: here },
  outputFileTracingRoot: here,
};

export default nextConfig;
