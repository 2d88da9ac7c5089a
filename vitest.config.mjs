import { defineConfig } from 'vitest/config';

// Root tests (test/): native vs wasm parity and the wasm API. They spawn the
// CLIs, so allow minutes per test; runs use the 2 cores through forks.
// Web app unit tests (web/src/**/*.test.ts): store actions and engine on
// the browser wasm module under Node, viz functions under jsdom (per-file
// `@vitest-environment jsdom`).
export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs', 'web/src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 15 * 60 * 1000,
    hookTimeout: 5 * 60 * 1000,
    passWithNoTests: false,
  },
});
