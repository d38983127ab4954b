// Loads `server-only` as an empty module outside a React Server environment, for tooling that runs the shop's server
// modules in plain Node (`npm run bench:sign-in`), as testing/server-only-stub.ts stands in for it under Vitest.
// Registered by `tsx --import ./testing/server-only-hooks.mjs`.
import { register } from "node:module";

if (import.meta.url.endsWith("?hooks")) {
  // nothing: this copy is the hooks module itself
} else {
  register(`${import.meta.url}?hooks`);
}

/** Node's module resolution hook: `server-only` → the stub. */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === "server-only") {
    return { url: "data:text/javascript,export {}", shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
