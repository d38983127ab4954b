import { vi } from "vitest";

// Test files share their worker's modules (`isolate: false`): the libraries a file imports stay loaded for the next
// file. Our own modules are evaluated afresh for each file, so a file's `vi.mock` reaches every module that imports
// what it mocks, and the configuration cached in lib/env.ts is read again, and the environment stubbed by the file
// before is restored.
vi.unstubAllEnvs();
vi.resetModules();
