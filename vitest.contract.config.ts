import { defineConfig } from "vitest/config";
import base from "./vitest.config";

// `npm run test:contract`: only the spec-rule suite, against a live service (the emulator by default).
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: undefined,
    include: ["lib/**/*.contract.ts"],
    testTimeout: 30_000,
    fileParallelism: false,
  },
});
