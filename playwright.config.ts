// Playwright: the e2e tests in e2e/ against the built app (web/dist) served
// by `vite preview`. System Chromium only (never `playwright install`).
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.SVZ_E2E_PORT ?? 4178);

export default defineConfig({
  testDir: 'e2e',
  testMatch: /.*\.spec\.ts$/,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.SVZ_PW_JSON
    ? [['list'], ['json', { outputFile: process.env.SVZ_PW_JSON }]]
    : [['list']],
  outputDir: 'build-test/playwright-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    viewport: { width: 1400, height: 1000 },
    launchOptions: {
      executablePath: process.env.SVZ_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    reducedMotion: 'reduce',
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `node_modules/.bin/vite preview --config web/vite.config.ts --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
