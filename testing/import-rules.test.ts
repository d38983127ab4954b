import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { setUpTempFolders } from "./temp-folders";

/**
 * The import rules of `npm run check` (.dependency-cruiser.cjs, run as `npm run deps`): the repository's own config,
 * run by dependency-cruiser's own command over small trees made here, fails on what it must refuse. That the
 * repository itself passes is `npm run deps`'s own row of `npm test` and `npm run check`, not repeated here.
 */

const root = resolve(import.meta.dirname, "..");
const config = join(root, ".dependency-cruiser.cjs");
const depcruise = join(root, "node_modules", ".bin", "depcruise");
const tempFolder = setUpTempFolders();

/** A tree of the given files (path → source), with the tsconfig.json the config reads. */
function tree(files: Record<string, string>): string {
  const folder = tempFolder("import-rules-");
  for (const [path, source] of Object.entries({ "tsconfig.json": "{}", ...files })) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), source);
  }
  return folder;
}

/** dependency-cruiser with the repository's config over `targets` in `cwd`: its exit status and what it printed. */
function cruise(cwd: string, targets: string[]) {
  const run = spawnSync(depcruise, ["--config", config, "--output-type", "err", ...targets], {
    cwd,
    encoding: "utf8",
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe("the import rules", () => {
  it("fail on a cycle between two lib/ folders, though no file imports itself round", () => {
    // A file of folder a imports one of b, another file of b one of a: no file-level cycle, one folder-level cycle.
    const cyclic = tree({
      "lib/a/one.ts": 'import { two } from "../b/two";\nexport const one = two + 1;\n',
      "lib/a/four.ts": "export const four = 4;\n",
      "lib/b/two.ts": "export const two = 2;\n",
      "lib/b/three.ts": 'import { four } from "../a/four";\nexport const three = four - 1;\n',
    });
    const { status, output } = cruise(cyclic, ["lib"]);
    expect(status).not.toBe(0);
    expect(output).toContain("no-folder-cycle-in-lib");
    expect(output).toMatch(/no-folder-cycle-in-lib: lib\/[ab] → /);

    // The same folders, one way only: passes.
    const oneWay = tree({
      "lib/a/one.ts": 'import { two } from "../b/two";\nexport const one = two + 1;\n',
      "lib/b/two.ts": "export const two = 2;\n",
    });
    expect(cruise(oneWay, ["lib"])).toMatchObject({ status: 0 });
  });

  it("fail when the shop imports tooling or the emulator, or a general helper a domain folder", () => {
    const crossing = tree({
      "lib/orders/store.ts": 'import { seed } from "../../testing/seed";\nexport const store = seed;\n',
      "testing/seed.ts": "export const seed = 1;\n",
      "app/page.ts": 'import { port } from "../emulator/port";\nexport const page = port;\n',
      "emulator/port.ts": "export const port = 4010;\n",
      "lib/time.ts": 'import { store } from "./orders/store";\nexport const zone = store;\n',
    });
    const { status, output } = cruise(crossing, ["app", "lib", "emulator"]);
    expect(status).not.toBe(0);
    for (const rule of [
      "shop-never-imports-tooling",
      "shop-never-imports-the-emulator",
      "general-helpers-stay-general",
    ])
      expect(output).toContain(rule);
  });
});
