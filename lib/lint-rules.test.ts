import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * The project's lint rule against redirect() inside try (eslint.config.mjs), run on small sources. The first lint
 * loads the whole configuration, type information included (the project's TypeScript program): seconds of a core,
 * and more while `npm test` builds beside it, hence the minute.
 */
describe("lint: no redirect() inside try", { timeout: 60_000 }, () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const lint = async (code: string) =>
    (await eslint.lintText(code, { filePath: "app/example/actions.ts" }))[0]!.messages.map((m) => m.message);

  it("flags redirect() in a try block, however deep", async () => {
    const messages = await lint(`"use server";
import { redirect } from "next/navigation";
export async function go(ok: boolean) {
  try {
    if (ok) {
      redirect("/done");
    }
  } catch (error) {
    console.error(error);
  }
}
`);
    expect(messages.some((m) => m.includes("redirect()"))).toBe(true);
  });

  it("allows redirect() after the try/catch and in the catch or finally block", async () => {
    const messages = await lint(`"use server";
import { redirect } from "next/navigation";
export async function go(work: () => Promise<void>) {
  try {
    await work();
  } catch {
    redirect("/failed");
  }
  redirect("/done");
}
`);
    expect(messages.filter((m) => m.includes("redirect()"))).toEqual([]);
  });
});

describe("lint: the React Compiler's rules on the client components", { timeout: 60_000 }, () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const impure = (directive: string) => `${directive}
export function Stamp() {
  return <p>{Date.now()}</p>;
}
`;
  const rules = async (code: string, filePath: string) =>
    (await eslint.lintText(code, { filePath }))[0]!.messages.map((m) => m.ruleId);

  it("flags an impure render in a client component", async () => {
    expect(await rules(impure('"use client";'), "components/submit-button.tsx")).toContain("react-hooks/purity");
  });

  it("leaves server components to the classic hooks rules", async () => {
    expect(await rules(impure(""), "app/(shop)/cart/page.tsx")).not.toContain("react-hooks/purity");
  });
});
