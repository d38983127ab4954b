import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/** `npm run screenshots`: every page in both languages at desktop and phone widths, into docs/screenshots/. */
export default defineConfig({
  ...base,
  testMatch: "screenshots.ts",
  reporter: [["list"]],
  projects: [{ name: "screenshots", use: { ...base.projects?.[0]?.use } }],
});
