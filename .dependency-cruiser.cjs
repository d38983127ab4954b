/**
 * The import rules of the house, checked by dependency-cruiser (`npm run deps`, part of `npm run check`), over the
 * shop (app/, lib/, components/, proxy.ts, instrumentation.ts) and the emulator. Test files are left out: a test may
 * reach across rooms and into testing/.
 *
 * The folders of lib/ depend one way (the README's map draws the order). An import that runs the other way makes a
 * folder-level cycle, which `no-folder-cycle-in-lib` refuses: give what both sides need a home below them — a general
 * helper of its own in lib/ (csv, phone, client-address, ids, time…), or the lower folder.
 *
 * @type {import("dependency-cruiser").IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: "no-folder-cycle-in-lib",
      comment:
        "The folders of lib/ depend one way. Move what both sides need into a home below them (a general helper in " +
        "lib/, or the lower folder) instead of importing upwards.",
      severity: "error",
      scope: "folder",
      from: { path: "^lib/" },
      to: { path: "^lib/", circular: true },
    },
    {
      name: "general-helpers-stay-general",
      comment:
        "lib/csv.ts, phone.ts, client-address.ts, ids.ts and time.ts serve every room, so they import none: that is " +
        "what keeps them below the domain folders.",
      severity: "error",
      from: { path: "^lib/(csv|phone|client-address|ids|time)\\.ts$" },
      to: { path: "^lib/[^/]+/" },
    },
    {
      name: "shop-never-imports-the-emulator",
      comment:
        "The emulator is a separate program, reached over HTTP only, exactly like the real service: delete emulator/ " +
        "and the shop still builds.",
      severity: "error",
      from: { path: "^(app|lib|components)/|^(proxy|instrumentation)\\.ts$" },
      to: { path: "^emulator/" },
    },
    {
      name: "emulator-never-imports-the-shop",
      comment: "The emulator stands in for the payment service, which knows nothing of the shop's code.",
      severity: "error",
      from: { path: "^emulator/" },
      to: { path: "^(app|lib|components)/|^(proxy|instrumentation)\\.ts$" },
    },
    {
      name: "shop-never-imports-tooling",
      comment: "Test support, benchmarks, scripts and browser tests stay out of what the shop builds and ships.",
      severity: "error",
      from: { path: "^(app|lib|components)/|^(proxy|instrumentation)\\.ts$" },
      to: { path: "^(scripts|testing|bench|e2e)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.tsx?$" },
    // Type-only imports count: they tie two rooms together as much as any other.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
