import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config";

// `npm run test:contract`: the spec-rule suite against a live service (the emulator by default).
export default mergeConfig(base, defineConfig({ test: { include: ["lib/**/*.contract.ts"], testTimeout: 30_000, fileParallelism: false } }));
